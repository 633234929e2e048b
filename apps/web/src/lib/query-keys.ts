/** A history's date range as part of its key. */
type DateRangeKey = { start_date?: string; end_date?: string };

/** Query keys shared across features, so a mutation in one feature can refresh another's data. */
export const queryKeys = {
  userInfo: ['user-info'] as const,
  profile: ['profile'] as const,
  wallet: ['wallet'] as const,
  settings: ['settings'] as const,
  incomeHistory: (type: number, page: number, range: DateRangeKey = {}) =>
    ['income-history', type, page, range.start_date ?? '', range.end_date ?? ''] as const,
  incomeAll: ['income-history'] as const,
  rewardLevels: ['reward-levels'] as const,
  stakeHistory: (page: number, range: DateRangeKey = {}) => ['stake-history', page, range.start_date ?? '', range.end_date ?? ''] as const,
  stakeAll: ['stake-history'] as const,
  history: (type: string, page: number, range: DateRangeKey = {}) => ['history', type, page, range.start_date ?? '', range.end_date ?? ''] as const,
  historyAll: ['history'] as const,
  transfers: (page: number, range: DateRangeKey = {}) => ['transfers', page, range.start_date ?? '', range.end_date ?? ''] as const,
  transfersAll: ['transfers'] as const,
  team: (page: number) => ['team', page] as const,
  tickets: ['tickets'] as const,
  pendingPayments: ['payments-pending'] as const,
  demoPendingPayments: ['demo-payments-pending'] as const,
  currencies: ['demo-currencies'] as const,
  security: ['security'] as const,
};
