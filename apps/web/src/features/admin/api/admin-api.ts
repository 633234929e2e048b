import { admin } from '@app/core/contracts/admin';
import { ZTicketStatus, ZWithdrawalStatus } from '@app/core/statuses';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { contractQuery, underPath } from '../../../lib/query-keys';

/** One file for the admin console's calls: every key is the call's own (lib/query-keys.ts), and any admin action refreshes them all. */

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

export const statsQuery = () => queryOptions(contractQuery(admin.stats));
export const usersQuery = (q: string, page: number) => queryOptions(contractQuery(admin.users, { query: { q, page } }));
export const userQuery = (id: string) => queryOptions(contractQuery(admin.user, { params: { id } }));
// A filter's text ('' for all) becomes the contract's status, or none: no cast, so a status the list does not know cannot be sent.
export const withdrawalsQuery = (status: string, page: number) =>
  queryOptions(contractQuery(admin.withdrawals, { query: { status: ZWithdrawalStatus.safeParse(status).data, page } }));
export const payoutsQuery = () => queryOptions(contractQuery(admin.payouts));
export const ticketsQuery = (status: string, page: number) =>
  queryOptions(contractQuery(admin.tickets, { query: { status: ZTicketStatus.safeParse(status).data, page } }));
export const paymentsQuery = (status: string, page: number) => queryOptions(contractQuery(admin.payments, { query: { status: status || undefined, page } }));
export const settingsQuery = () => queryOptions(contractQuery(admin.settings));
export const rewardLevelsQuery = () => queryOptions(contractQuery(admin.rewardLevels));
/** The chain gateway's watchers and reconciliation, a page of the addresses holding the token; refreshed every 10 s while the page is open. */
export const custodyQuery = (page = 1) => queryOptions({ ...contractQuery(admin.custody, { query: { page } }), refetchInterval: 10_000 });
export const auditQuery = (page: number) => queryOptions(contractQuery(admin.auditLog, { query: { page } }));

/** A POST/PUT that refreshes every admin query afterwards. */
export function useAdminAction<TArg, TResult extends { message?: string }>(send: (arg: TArg) => Promise<TResult>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => qc.invalidateQueries({ predicate: underPath('/admin/') }),
  });
}
