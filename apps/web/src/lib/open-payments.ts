import { demoPayments } from '@app/core/contracts/payments';
import type { TPendingPayment } from '@app/core/contracts/payments';
import { OPEN_PAYMENT_STATUSES } from '@app/core/statuses';
import { queryOptions } from '@tanstack/react-query';
import { contractQuery } from './query-keys';

/**
 * The user's open deposits (GET /api/demo-payments/pending), read by /demo-deposit and by the
 * dashboard's "in flight" strip: one key, so both see the same answer. The demo-deposit setup
 * (spec section 9): no refetch on focus, one retry; always refetched on arrival.
 */
export const demoPendingQueryOptions = () => queryOptions({ ...contractQuery(demoPayments.pending), refetchOnWindowFocus: false, retry: 1, staleTime: 0 });

/** A pending payment worth reopening: money already on its way, or still waiting inside its window. */
export function reopenable(p: TPendingPayment, now = Date.now()): boolean {
  if (!p.pay_address) return false;
  if (p.status === 'waiting') return !p.timedout_at || Date.parse(p.timedout_at) > now;
  // Past waiting and still open: the money is on its way.
  return OPEN_PAYMENT_STATUSES.some((s) => s === p.status);
}
