/**
 * `npm run test:long` (TEST_LONG=1): the randomised tests draw a new seed and run several times
 * longer. `npm test` runs them seeded and bounded, so CI checks the same cases every time and stays
 * within its time budget; the long run is for looking for new failures.
 */
export const LONG = process.env.TEST_LONG === '1';
