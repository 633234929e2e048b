import { history } from '@app/core/contracts/money';
import type { DataOut } from '@app/core/contracts/define';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { fetchData } from './call';
import { queryKeys } from './query-keys';

export type HistoryType = 'transaction' | 'withdrawal' | 'transfer';
export type HistoryData = DataOut<typeof history.list>;

/** GET /api/user/get-history?type&page: /transaction, and the pending-withdrawals notice (components/) on /wallet too. */
export const historyQueryOptions = (type: HistoryType, page: number) =>
  queryOptions({ queryKey: queryKeys.history(type, page), queryFn: fetchData(history.list, { query: { type, page } }), placeholderData: keepPreviousData });
