/**
 * The one set of knobs for the randomised tests (issue 50): every property and seeded random test
 * takes its seed and its size from here, so one pair of settings replays or lengthens any of them.
 *
 *   - `FC_SEED=n`: the seed. Unset, `npm test` uses each test's fixed seed (CI checks the same
 *     cases every time) and `npm run test:long` draws a new one.
 *   - `TEST_LONG=1` (`npm run test:long`): several times more runs, operations or batches, to look
 *     for new failures; `npm test` keeps them bounded for CI's time budget.
 *
 * A failing test prints `replayWith(seed)`: the settings that run the same cases again.
 */
export const LONG = process.env.TEST_LONG === '1';

const FC_SEED = process.env.FC_SEED;

/**
 * `FC_SEED` when set; else a new seed in a long run; else the test's own fixed seed. The seed is
 * printed (vitest names the file above it) so a run that fails in a way no assertion reports, a
 * timeout or a crash, can still be replayed.
 */
export function propertySeed(fixed: number): number {
  const seed = chosenSeed(fixed);
  console.log(`randomised test seed ${seed}: replay with ${replayWith(seed)}`);
  return seed;
}

function chosenSeed(fixed: number): number {
  if (FC_SEED !== undefined && FC_SEED !== '') {
    const seed = Number(FC_SEED);
    if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, not ${JSON.stringify(FC_SEED)}`);
    return seed;
  }
  return LONG ? Math.floor(Math.random() * 2 ** 31) : fixed;
}

/** The bounded size in `npm test`, the long one under `TEST_LONG=1`. */
export function sized<T>(bounded: T, long: T): T {
  return LONG ? long : bounded;
}

/** The settings that replay a run: its seed, and its size when it was a long run. */
export function replayWith(seed: number): string {
  return `FC_SEED=${seed}${LONG ? ' TEST_LONG=1' : ''}`;
}
