import { beforeAll } from 'vitest';
import type { TestApp } from './app';

/**
 * The describe block's app clock (`ctx.now`), moved forward by hand instead of waiting: real time
 * plus an offset, so it never runs backwards and TOTP codes made with `now()` match the server's.
 */
export function useClock(t: TestApp): { now: () => Date; advance: (ms: number) => void } {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  beforeAll(() => {
    t.ctx.now = now;
  });
  return { now, advance: (ms: number) => void (offset += ms) };
}
