import { RpcError } from './rpc/json-rpc';
import { pause, type WatchTuning } from './runtime';

/** Back-off before try `attempt` (1-based): 250 ms doubling to 8 s; a 429 waits four times as long. */
export function backoffMs(attempt: number, kind: RpcError['kind']): number {
  const base = Math.min(8_000, 250 * 2 ** (attempt - 1));
  return kind === 'rate_limited' ? base * 4 : base;
}

/** A node call tried `attempts` times with back-off; a `range` refusal is the caller's to meet (smaller range). */
export async function withRetry<T>(
  tuning: WatchTuning,
  what: string,
  fn: () => Promise<T>,
  passRange = false,
  onFailure?: (err: RpcError) => Promise<void>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      if (passRange && err.kind === 'range') throw err;
      await onFailure?.(err);
      // Stopping: no more tries, and no back-off to sit through.
      if (attempt >= tuning.attempts || tuning.stop?.aborted) throw new RpcError(err.kind, `${what} failed ${attempt} times: ${err.message}`, err.code);
      await pause(tuning, backoffMs(attempt, err.kind));
    }
  }
}
