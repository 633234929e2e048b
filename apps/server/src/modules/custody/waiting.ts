import type { AppContext } from '../../context';
import { rawToDecimal } from './amounts';
import type { ObservationStatus } from './table';

/**
 * What the admin view shows of a transfer that waits for an admin: its status, the amount that
 * arrived in exact decimal (a held transfer's micro amount is 0, and dust is under one micro-unit),
 * and what can be done: credit needs at least one micro-USDT under the bound, dismiss always works.
 */
export function waitingActions(
  ctx: AppContext,
  w: { network: string; status: ObservationStatus; amount: bigint; raw_amount: string },
): { status: 'below_minimum' | 'held'; token_amount: string; actions: ('credit' | 'dismiss')[] } {
  const decimals = ctx.config.payments.custody.networks.find((n) => n.network === w.network)?.decimals;
  const held = w.status === 'held';
  return {
    status: held ? 'held' : 'below_minimum',
    // A network no longer configured: its decimals are unknown, the raw amount is what there is.
    token_amount: decimals === undefined ? `${w.raw_amount} (raw)` : rawToDecimal(w.raw_amount, decimals),
    actions: !held && w.amount > 0n ? ['credit', 'dismiss'] : ['dismiss'],
  };
}
