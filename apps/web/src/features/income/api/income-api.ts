import { income } from '@app/core/contracts/money';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { fetchData } from '../../../lib/call';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/income/history?income_type=1|2|3&page */
export const incomeHistoryQueryOptions = (type: 1 | 2 | 3, page: number, range: { start_date?: string; end_date?: string } = {}) =>
  queryOptions({
    queryKey: queryKeys.incomeHistory(type, page, range),
    queryFn: fetchData(income.history, { query: { income_type: type, page, per_page: 10, ...range } }),
    placeholderData: keepPreviousData,
  });

/** GET /api/income/reward-levels */
export const rewardLevelsQueryOptions = () => queryOptions({ queryKey: queryKeys.rewardLevels, queryFn: fetchData(income.rewardLevels) });

/** GET /api/user/income-chart?days=7|30|90; under incomeAll, so a new stake refreshes it too. */
export const incomeChartQueryOptions = (days: 7 | 30 | 90) =>
  queryOptions({
    queryKey: [...queryKeys.incomeAll, 'chart', days] as const,
    queryFn: fetchData(income.chart, { query: { days } }),
    placeholderData: keepPreviousData,
  });
