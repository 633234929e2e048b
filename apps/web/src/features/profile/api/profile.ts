import type { TProfile } from '@app/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/user/profile */
export const profileQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.profile,
    queryFn: async () => (await api.get<TProfile>('/api/user/profile')).data!,
  });
