import type { TList, TTeamMember } from '@app/core';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/user/my-team?page&per_page=10 */
export const teamQueryOptions = (page: number) =>
  queryOptions({ queryKey: queryKeys.team(page), queryFn: async () => (await api.get<TList<TTeamMember>>('/api/user/my-team', { page, per_page: 10 })).data!, placeholderData: keepPreviousData });
