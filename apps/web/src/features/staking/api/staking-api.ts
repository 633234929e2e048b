import { staking } from '@app/core/contracts/money';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call, fetchData } from '../../../lib/call';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/stake/create; refreshes wallet, user info, stake history and income. */
export function useCreateStake() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (amount_usd: number) => call(staking.create, { body: { amount_usd } }),
    onSuccess: () =>
      Promise.all([queryKeys.wallet, queryKeys.userInfo, queryKeys.stakeAll, queryKeys.incomeAll].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

/** GET /api/stake/history?page&per_page=10 */
export const stakeHistoryQueryOptions = (page: number, range: { start_date?: string; end_date?: string } = {}) =>
  queryOptions({
    queryKey: queryKeys.stakeHistory(page, range),
    queryFn: fetchData(staking.history, { query: { page, per_page: 10, ...range } }),
    placeholderData: keepPreviousData,
  });
