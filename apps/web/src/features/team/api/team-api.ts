import { team } from '@app/core/contracts/money';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { contractQuery } from '../../../lib/query-keys';

/** GET /api/user/my-team?page&per_page=10 */
export const teamQueryOptions = (page: number) =>
  queryOptions({ ...contractQuery(team.directs, { query: { page, per_page: 10 } }), placeholderData: keepPreviousData });
