import type { TTransferRecord } from '@app/core/contracts';
import { history, transfers } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call';
import { contractQuery, keyOfAll } from '../../../lib/query-keys';

export type TransferRow = TTransferRecord;

export const checkUsername = (username: string) => call(user.check, { query: { username } });

/** POST /api/user/fund-transfer; refreshes the wallet, user info and transfer history. */
export function useCreateTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; amount_usd: number; type: 'deposit' | 'withdraw' }) => call(transfers.create, { body }),
    onSuccess: () => Promise.all([user.wallet, user.info, transfers.list, history.list].map((c) => qc.invalidateQueries({ queryKey: keyOfAll(c) }))),
  });
}

export const transfersQueryOptions = (page: number, range: { start_date?: string; end_date?: string } = {}) =>
  queryOptions({
    ...contractQuery(transfers.list, { query: { page, per_page: 10, type: '', start_date: range.start_date ?? '', end_date: range.end_date ?? '' } }),
    placeholderData: keepPreviousData,
  });
