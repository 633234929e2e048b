import { payments } from '@app/core/contracts/payments';
import { queryOptions } from '@tanstack/react-query';
import { fetchData } from '../../../lib/call';

/** The chain gateway's permanent deposit addresses of the user (assigned on first ask, never change). */
export const addressesQueryOptions = () => queryOptions({ queryKey: ['payments-addresses'], queryFn: fetchData(payments.addresses), staleTime: Infinity });
