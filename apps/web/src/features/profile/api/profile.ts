import { user } from '@app/core/contracts/user';
import { queryOptions } from '@tanstack/react-query';
import { fetchData } from '../../../lib/call';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/user/profile */
export const profileQueryOptions = () => queryOptions({ queryKey: queryKeys.profile, queryFn: fetchData(user.profile) });
