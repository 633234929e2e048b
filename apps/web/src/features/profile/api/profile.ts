import { user } from '@app/core/contracts/user';
import { queryOptions } from '@tanstack/react-query';
import { contractQuery } from '../../../lib/query-keys';

/** GET /api/user/profile */
export const profileQueryOptions = () => queryOptions(contractQuery(user.profile));
