import type { TList } from '@app/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

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
};

export interface AdminStats {
  users: number;
  active_users: number;
  total_deposits: number;
  total_staked: number;
  liabilities: number;
  withdrawals_pending: { count: number; amount: number };
  withdrawals_paid: { count: number; amount: number };
  daily: { date: string; deposits: number; withdrawals: number }[];
}
export interface AdminUserRow {
  id: string;
  name: string;
  email: string;
  username: string;
  status: string;
  is_admin: boolean;
  eligible_level: number;
  verified: boolean;
  createdAt: string;
}
export interface AdminUserDetail {
  user: AdminUserRow & { referrer: string | null; active_date: string | null };
  balances: { deposit: number; income: number };
  totals: Record<string, number>;
  team: { total_directs: number; total_direct_business: number; total_network: number; team_business: { users: number; amount: number } };
  ledger: { id: string; kind: string; key: string; memo: string | null; createdAt: string; postings: { account: string; amount: number }[] }[];
  stakes: { id: string; amount: number; roi_paid: number; status: string; createdAt: string }[];
  payments: { id: string; payment_id: string; status: string; amount: number; credited: number; createdAt: string }[];
  withdrawals: { id: string; amount: number; status: string; network: string; createdAt: string }[];
}
export interface AdminWithdrawal {
  id: string;
  user: { id: string; username: string; email: string };
  amount: number;
  fee: number;
  receive_amount: number;
  network: string;
  wallet_address: string;
  status: string;
  tx_hash: string | null;
  reject_reason: string | null;
  createdAt: string;
  processedAt: string | null;
}
export interface AdminTicket {
  id: string;
  type: string;
  message: string;
  status: string;
  adminRemark: string | null;
  createdAt: string;
  closedAt: string | null;
  user: { id: string; username: string; email: string; name: string };
}
export interface AdminPayment {
  id: string;
  payment_id: string;
  user: { id: string; username: string };
  pay_currency: string;
  price_amount: number;
  actually_paid: number;
  credited_amount: number;
  status: string;
  needs_review: boolean;
  createdAt: string;
}
export interface AdminSettings {
  roi_income_percentage: number;
  stake_cap_percentage: number;
  direct_referral_percentage: number;
  withdrawal_fee_percentage: number;
  maintenance_mode: boolean;
}
export interface AdminRewardLevel {
  level: number;
  self_investment: number;
  direct_investment: number;
  reward: number;
}
export interface AdminAuditEntry {
  id: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  admin: string | null;
  createdAt: string;
}
export interface LedgerReport {
  ok: boolean;
  entries: number;
  accounts: number;
  unbalancedEntries: unknown[];
  mismatchedAccounts: unknown[];
  negativeUserAccounts: unknown[];
  totalOfAllBalances: string;
}

const list = <T,>(path: string, query: Record<string, string | number | undefined>) => async () => (await api.get<TList<T>>(path, query)).data!;

export const statsQuery = () => queryOptions({ queryKey: adminKeys.stats, queryFn: async () => (await api.get<AdminStats>('/api/admin/stats')).data! });
export const usersQuery = (q: string, page: number) => queryOptions({ queryKey: adminKeys.users(q, page), queryFn: list<AdminUserRow>('/api/admin/users', { q, page }) });
export const userQuery = (id: string) => queryOptions({ queryKey: adminKeys.user(id), queryFn: async () => (await api.get<AdminUserDetail>(`/api/admin/users/${id}`)).data! });
export const withdrawalsQuery = (status: string, page: number) =>
  queryOptions({ queryKey: adminKeys.withdrawals(status, page), queryFn: list<AdminWithdrawal>('/api/admin/withdrawals', { status: status || undefined, page }) });
export const ticketsQuery = (status: string, page: number) =>
  queryOptions({ queryKey: adminKeys.tickets(status, page), queryFn: list<AdminTicket>('/api/admin/tickets', { status: status || undefined, page }) });
export const paymentsQuery = (status: string, page: number) =>
  queryOptions({ queryKey: adminKeys.payments(status, page), queryFn: list<AdminPayment>('/api/admin/payments', { status: status || undefined, page }) });
export const settingsQuery = () => queryOptions({ queryKey: adminKeys.settings, queryFn: async () => (await api.get<AdminSettings>('/api/admin/settings')).data! });
export const rewardLevelsQuery = () => queryOptions({ queryKey: adminKeys.rewardLevels, queryFn: async () => (await api.get<AdminRewardLevel[]>('/api/admin/reward-levels')).data! });
export const auditQuery = (page: number) => queryOptions({ queryKey: adminKeys.audit(page), queryFn: list<AdminAuditEntry>('/api/admin/audit-log', { page }) });

/** A POST/PUT that refreshes every admin query afterwards. */
export function useAdminAction<TBody>(method: 'post' | 'put', path: (body: TBody) => string, payload: (body: TBody) => unknown = (b) => b) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => api[method]<unknown>(path(body), payload(body)),
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
