import { team } from '@app/core/contracts/money';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { fetchData } from '../../../lib/call';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/user/my-team?page&per_page=10 */
export const teamQueryOptions = (page: number) =>
  queryOptions({ queryKey: queryKeys.team(page), queryFn: fetchData(team.directs, { query: { page, per_page: 10 } }), placeholderData: keepPreviousData });
