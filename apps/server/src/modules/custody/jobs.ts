import type { AppContext } from '../../context';
import { watchOnce } from './watcher';

/**
 * The scheduler's jobs: one watcher per configured network, each a job of its own, so each runs
 * under its own advisory lock (one process watches a network at a time) on its own CHAIN_POLL_MS.
 */
export function custodyJobs(ctx: AppContext) {
  return ctx.config.payments.custody.networks.map((n) => ({
    name: `custody:watch:${n.network}`,
    intervalMs: ctx.config.payments.custody.pollMs,
    run: (c: AppContext) => watchOnce(c, n.network),
  }));
}
