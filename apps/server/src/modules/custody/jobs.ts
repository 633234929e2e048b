import type { AppContext } from '../../context';
import { readBalances } from './balances';
import { watchOnce } from './watcher';

/**
 * The scheduler's jobs: one watcher per configured network, each a job of its own, so each runs
 * under its own advisory lock (one process watches a network at a time) on its own CHAIN_POLL_MS;
 * and per network the balances job (CHAIN_BALANCES_POLL_MS) that stores what the admin view shows.
 * Closing the app aborts every node call they have in flight (routes.ts), so a hung node cannot
 * hold the scheduler's stop, which waits for them.
 */
export function custodyJobs(ctx: AppContext) {
  const custody = ctx.config.payments.custody;
  return custody.networks.flatMap((n) => [
    { name: `custody:watch:${n.network}`, intervalMs: custody.pollMs, run: (c: AppContext) => watchOnce(c, n.network) },
    { name: `custody:balances:${n.network}`, intervalMs: custody.balancesPollMs, run: (c: AppContext) => readBalances(c, n.network) },
  ]);
}
