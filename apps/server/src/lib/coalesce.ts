/**
 * Coalesces the calls made in one turn of the event loop into one call over all their keys (the
 * DataLoader pattern, without its cache): under load, the requests whose bytes arrived in the same
 * poll phase share one statement instead of one round trip each. A key asked twice in the turn is
 * looked up once. Nothing is cached across turns: every call is answered by a statement that
 * started after the call was made, so a coalesced read is exactly as fresh as a lone one.
 *
 * `run` gets distinct keys and returns one result per key, in the same order. If it throws, every
 * caller of that turn gets the error.
 *
 * A batch holds at most `maxBatch` keys. Small enough that a turn's readers go out as two or more
 * statements on different connections: one of them is back, and its answers written, while
 * PostgreSQL still runs the next, so the event loop and the database work side by side instead of
 * taking turns. Measured with 64 connections over 1,000 users (docs/benchmarks.md, 2026-11-23
 * late): 256 (one statement per turn, the process idle 27 % of the time) 0.47–0.49× the bare
 * route, 64 0.46–0.54×, 32 0.54–0.56×, 16 0.49–0.55×.
 */
export function coalesce<K, R>(run: (keys: K[]) => Promise<R[]>, maxBatch = 32): (key: K) => Promise<R> {
  let pending: Map<K, { resolve: (r: R) => void; reject: (e: unknown) => void }[]> | undefined;

  const flush = (batch: Map<K, { resolve: (r: R) => void; reject: (e: unknown) => void }[]>) => {
    const keys = [...batch.keys()];
    run(keys).then(
      (results) => {
        keys.forEach((k, i) => {
          for (const w of batch.get(k)!) w.resolve(results[i] as R);
        });
      },
      (err: unknown) => {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
      },
    );
  };

  return (key: K) =>
    new Promise<R>((resolve, reject) => {
      if (!pending) {
        const batch = new Map<K, { resolve: (r: R) => void; reject: (e: unknown) => void }[]>();
        pending = batch;
        setImmediate(() => {
          // Still open (not already sent because it filled up): send it.
          if (pending !== batch) return;
          pending = undefined;
          flush(batch);
        });
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
      // A full batch goes now; the next call opens a new one.
      if (pending.size >= maxBatch) {
        const full = pending;
        pending = undefined;
        flush(full);
      }
    });
}

/** One coalescer per database handle (tests build several apps, each on its own database). */
export function coalescePer<Db extends object, K, R>(run: (db: Db, keys: K[]) => Promise<R[]>): (db: Db, key: K) => Promise<R> {
  const byDb = new WeakMap<Db, (key: K) => Promise<R>>();
  return (db, key) => {
    let f = byDb.get(db);
    if (!f) {
      f = coalesce((keys: K[]) => run(db, keys));
      byDb.set(db, f);
    }
    return f(key);
  };
}
