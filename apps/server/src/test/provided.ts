import type { ProvidedContext } from 'vitest';

// vitest 5 throws when a program it does not run imports it ("Vitest failed to access its internal
// state"), and the Lighthouse benchmark starts its servers through e2e/harness.ts under tsx. So
// vitest is imported only when vitest runs this process (it sets VITEST).
const vitest = process.env.VITEST ? await import('vitest') : undefined;

/** A value the run's global setup provided; undefined outside vitest and in vitest's main process. */
export function provided<K extends keyof ProvidedContext>(key: K): ProvidedContext[K] | undefined {
  if (!vitest) return undefined;
  try {
    return vitest.inject(key);
  } catch {
    // The main process (a global setup) has no provided context.
    return undefined;
  }
}
