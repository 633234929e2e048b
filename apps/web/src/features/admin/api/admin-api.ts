import { admin } from '@app/core/contracts/admin';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchData } from '../../../lib/call';

/** One file for the admin console's calls: they share keys and invalidate each other. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  users: (q: string, page: number) => ['admin', 'users', q, page] as const,
  user: (id: string) => ['admin', 'user', id] as const,
  withdrawals: (status: string, page: number) => ['admin', 'withdrawals', status, page] as const,
  tickets: (status: string, page: number) => ['admin', 'tickets', status, page] as const,
  payments: (status: string, page: number) => ['admin', 'payments', status, page] as const,
  settings: ['admin', 'settings'] as const,
  rewardLevels: ['admin', 'reward-levels'] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
  custody: ['admin', 'custody'] as const,
};

export type {
  AdminAuditEntry,
  AdminPayment,
  AdminRewardLevel,
  AdminSettings,
  AdminStats,
  AdminTicket,
  AdminUserDetail,
  AdminUserRow,
  AdminWithdrawal,
  LedgerReport,
  TCustodyView,
} from '@app/core/contracts/admin';

export const statsQuery = () => queryOptions({ queryKey: adminKeys.stats, queryFn: fetchData(admin.stats) });
export const usersQuery = (q: string, page: number) =>
  queryOptions({ queryKey: adminKeys.users(q, page), queryFn: fetchData(admin.users, { query: { q, page } }) });
export const userQuery = (id: string) => queryOptions({ queryKey: adminKeys.user(id), queryFn: fetchData(admin.user, { params: { id } }) });
export const withdrawalsQuery = (status: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.withdrawals(status, page),
    queryFn: fetchData(admin.withdrawals, { query: { status: (status || undefined) as 'pending' | undefined, page } }),
  });
export const ticketsQuery = (status: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.tickets(status, page),
    queryFn: fetchData(admin.tickets, { query: { status: (status || undefined) as 'open' | undefined, page } }),
  });
export const paymentsQuery = (status: string, page: number) =>
  queryOptions({ queryKey: adminKeys.payments(status, page), queryFn: fetchData(admin.payments, { query: { status: status || undefined, page } }) });
export const settingsQuery = () => queryOptions({ queryKey: adminKeys.settings, queryFn: fetchData(admin.settings) });
export const rewardLevelsQuery = () => queryOptions({ queryKey: adminKeys.rewardLevels, queryFn: fetchData(admin.rewardLevels) });
/** The chain gateway's watchers and reconciliation; refreshed every 10 s while the page is open. */
export const custodyQuery = () => queryOptions({ queryKey: adminKeys.custody, queryFn: fetchData(admin.custody), refetchInterval: 10_000 });
export const auditQuery = (page: number) => queryOptions({ queryKey: adminKeys.audit(page), queryFn: fetchData(admin.auditLog, { query: { page } }) });

/** A POST/PUT that refreshes every admin query afterwards. */
export function useAdminAction<TArg, TResult extends { message?: string }>(send: (arg: TArg) => Promise<TResult>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
