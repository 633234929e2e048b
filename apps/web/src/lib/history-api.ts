import { history } from '@app/core/contracts/money';
import type { DataOut } from '@app/core/contracts/define';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { contractQuery } from './query-keys';

export type HistoryType = 'transaction' | 'withdrawal' | 'transfer';
export type HistoryData = DataOut<typeof history.list>;

/** GET /api/user/get-history?type&page&start_date&end_date: /transaction, and the pending-withdrawals notice (components/) on /wallet too. */
export const historyQueryOptions = (type: HistoryType, page: number, range: { start_date?: string; end_date?: string } = {}) =>
  queryOptions({
    ...contractQuery(history.list, { query: { type, page, ...range } }),
    placeholderData: keepPreviousData,
  });

/** The CSV export's list for each tab. */
export const EXPORT_LIST = { transaction: 'deposits', withdrawal: 'withdrawals', transfer: 'transfers' } as const;
