import { payments } from '@app/core/contracts/payments';
import { queryOptions } from '@tanstack/react-query';
import { contractQuery } from '../../../lib/query-keys';

/** The chain gateway's permanent deposit addresses of the user (assigned on first ask, never change). */
export const addressesQueryOptions = () => queryOptions({ ...contractQuery(payments.addresses), staleTime: Infinity });
