import type { TIncomeItem, TList, TRewardLevel } from '@app/core';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/income/history?income_type=1|2|3&page */
export const incomeHistoryQueryOptions = (type: 1 | 2 | 3, page: number) =>
  queryOptions({
    queryKey: queryKeys.incomeHistory(type, page),
    queryFn: async () => (await api.get<TList<TIncomeItem>>('/api/income/history', { income_type: type, page, per_page: 10 })).data!,
    placeholderData: keepPreviousData,
  });

/** GET /api/income/reward-levels */
export const rewardLevelsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.rewardLevels, queryFn: async () => (await api.get<TRewardLevel[]>('/api/income/reward-levels')).data ?? [] });
