import type { THistoryRecord, TList } from '@app/core';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type HistoryType = 'transaction' | 'withdrawal' | 'transfer';
export type HistoryData = TList<THistoryRecord> & { total_deposits: number; total_withdrawals: number };

/** GET /api/user/get-history?type&page */
export const historyQueryOptions = (type: HistoryType, page: number) =>
  queryOptions({ queryKey: queryKeys.history(type, page), queryFn: async () => (await api.get<HistoryData>('/api/user/get-history', { type, page })).data!, placeholderData: keepPreviousData });
