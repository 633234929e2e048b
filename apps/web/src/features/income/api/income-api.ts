import { income } from '@app/core/contracts/money';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { contractQuery } from '../../../lib/query-keys';

/** GET /api/income/history?income_type=1|2|3&page */
export const incomeHistoryQueryOptions = (type: 1 | 2 | 3, page: number, range: { start_date?: string; end_date?: string } = {}) =>
  queryOptions({
    ...contractQuery(income.history, { query: { income_type: type, page, per_page: 10, ...range } }),
    placeholderData: keepPreviousData,
  });

/** GET /api/income/reward-levels */
export const rewardLevelsQueryOptions = () => queryOptions(contractQuery(income.rewardLevels));

/** GET /api/user/income-chart?days=7|30|90 (a new stake refreshes it too: staking-api.ts). */
export const incomeChartQueryOptions = (days: 7 | 30 | 90) =>
  queryOptions({
    ...contractQuery(income.chart, { query: { days } }),
    placeholderData: keepPreviousData,
  });
