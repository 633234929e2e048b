import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiIsBack, MAINTENANCE_POLL_MS, MAINTENANCE_PROBE, watchMaintenance } from './maintenance-watch';
import { notePage, returnPath } from './return-path';

const answer = (status: number) => Promise.resolve(new Response(JSON.stringify({ success: status < 400 }), { status }));

describe('the maintenance page comes back by itself (issue 47)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks a public route that maintenance closes, and takes only a success as the end', async () => {
    expect(MAINTENANCE_PROBE).toBe('/api/auth/providers');
    const asked: string[] = [];
    const fetchFn = ((url: string) => {
      asked.push(url);
      return answer(200);
    }) as unknown as typeof fetch;
    expect(await apiIsBack(fetchFn)).toBe(true);
    expect(asked).toEqual(['/api/auth/providers']);
    expect(await apiIsBack((() => answer(503)) as unknown as typeof fetch)).toBe(false);
    expect(await apiIsBack((() => answer(500)) as unknown as typeof fetch)).toBe(false);
    expect(await apiIsBack((() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch)).toBe(false);
  });

  it('asks every 20 s while the answer is 503, then calls onBack once and stops', async () => {
    expect(MAINTENANCE_POLL_MS).toBeGreaterThanOrEqual(15_000);
    expect(MAINTENANCE_POLL_MS).toBeLessThanOrEqual(30_000);
    const answers = [false, false, true];
    const probe = vi.fn(() => Promise.resolve(answers.shift() ?? true));
    const onBack = vi.fn();
    watchMaintenance({ probe, onBack });
    await vi.advanceTimersByTimeAsync(MAINTENANCE_POLL_MS - 1);
    expect(probe).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(MAINTENANCE_POLL_MS);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(onBack).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(MAINTENANCE_POLL_MS);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(onBack).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(MAINTENANCE_POLL_MS * 5);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('asks at once when told (back online, tab shown), and never after stop', async () => {
    const probe = vi.fn(() => Promise.resolve(false));
    const onBack = vi.fn();
    const watch = watchMaintenance({ probe, onBack });
    watch.now();
    await vi.advanceTimersByTimeAsync(0);
    expect(probe).toHaveBeenCalledTimes(1);
    watch.stop();
    await vi.advanceTimersByTimeAsync(MAINTENANCE_POLL_MS * 3);
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('goes back to the page the 503 came from, else the dashboard or home', () => {
    expect(returnPath(true)).toBe('/dashboard');
    expect(returnPath(false)).toBe('/');
    notePage('/withdrawal');
    notePage('/maintenance');
    expect(returnPath(true)).toBe('/withdrawal');
  });
});
