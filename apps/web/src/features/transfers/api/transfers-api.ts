import type { TList, TTransferRecord } from '@app/core';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type TransferRow = TTransferRecord & { direction?: 'sent' | 'received' };

export const checkUsername = (username: string) => api.get<{ userName: string; username: string }>('/api/user/check', { username });

/** POST /api/user/fund-transfer; refreshes the wallet, user info and transfer history. */
export function useCreateTransfer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; amount_usd: number; type: 'deposit' | 'withdraw' }) => api.post('/api/user/fund-transfer', body),
    onSuccess: () => Promise.all([queryKeys.wallet, queryKeys.userInfo, queryKeys.transfersAll, queryKeys.historyAll].map((queryKey) => qc.invalidateQueries({ queryKey }))),
  });
}

export const transfersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: queryKeys.transfers(page),
    queryFn: async () => (await api.get<TList<TransferRow>>('/api/user/fund-transfer', { page, per_page: 10, type: '', start_date: '', end_date: '' })).data!,
    placeholderData: keepPreviousData,
  });
