import type { DB, Tx } from './types';

const RETRYABLE = new Set(['40P01', '40001']); // deadlock detected, serialization failure

/**
 * How many times a transaction ran again after a deadlock or serialization failure since the process
 * started: withTx's retries and the transfer statement's own (transfers/service.ts). Tests read it
 * (roi-set.test.ts, roi-parallel.test.ts); no metric exports it.
 */
export const txRetries = { count: 0 };

/**
 * Runs fn in one transaction, retrying a few times when PostgreSQL aborts it as a deadlock
 * victim or a serialization failure. Everything inside must be safe to run again (it is: the
 * aborted attempt wrote nothing).
 */
export async function withTx<T>(db: DB, fn: (tx: Tx) => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      if (i >= attempts || !RETRYABLE.has((err as { code?: string }).code ?? '')) throw err;
      txRetries.count++;
      // Growing, jittered pauses, so the transactions that collided do not collide again in step.
      await new Promise((r) => setTimeout(r, Math.min(500, 10 * 2 ** i) * (0.5 + Math.random())));
    }
  }
}
