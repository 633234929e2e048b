import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { income, staking } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { call } from '../../../lib/call';
import { contractQuery, keyOfAll } from '../../../lib/query-keys';

/** POST /api/stake/create; refreshes wallet, user info, stake history and income. */
export function useCreateStake() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (amount_usd: number) => call(staking.create, { body: { amount_usd } }),
    onSuccess: () =>
      Promise.all([user.wallet, user.info, staking.history, income.history, income.chart].map((c) => qc.invalidateQueries({ queryKey: keyOfAll(c) }))),
  });
}

/** GET /api/stake/history?page&per_page=10 */
export const stakeHistoryQueryOptions = (page: number, range: { start_date?: string; end_date?: string } = {}) =>
  queryOptions({
    ...contractQuery(staking.history, { query: { page, per_page: 10, ...range } }),
    placeholderData: keepPreviousData,
  });
