import { describe, expect, it } from 'vitest';
import { maintenanceFlag } from './maintenance';

/** A settings read that waits until released, counting how often it is made. */
function gatedRead() {
  const pending: ((on: boolean) => void)[] = [];
  return {
    reads: () => pending.length,
    read: () => new Promise<boolean>((resolve) => pending.push(resolve)),
    release: (i: number, on: boolean) => pending[i]!(on),
  };
}
const answers = (flag: ReturnType<typeof maintenanceFlag>, n: number) =>
  Promise.all(Array.from({ length: n }, () => new Promise<boolean>((resolve) => flag.check(resolve))));

describe('maintenance flag', () => {
  it('requests that find the flag stale share one read, and the fresh flag answers without one', async () => {
    const g = gatedRead();
    let clock = 0;
    const flag = maintenanceFlag(g.read, () => clock);
    const first = answers(flag, 64);
    expect(g.reads()).toBe(1);
    g.release(0, true);
    expect(await first).toEqual(Array(64).fill(true));
    clock += 1_000;
    expect(await answers(flag, 5)).toEqual(Array(5).fill(true));
    expect(g.reads()).toBe(1);
    clock += 1_500; // stale again
    const next = answers(flag, 10);
    expect(g.reads()).toBe(2);
    g.release(1, false);
    expect(await next).toEqual(Array(10).fill(false));
  });

  it('after a reset, a read started before it answers no one: waiting requests get the read started after', async () => {
    const g = gatedRead();
    const flag = maintenanceFlag(g.read, () => 0);
    const before = answers(flag, 3);
    flag.reset(); // the admin switched maintenance on while the first read was in flight
    const after = answers(flag, 2);
    expect(g.reads()).toBe(2);
    g.release(0, false); // the old read (maintenance still off when it ran)
    await new Promise((r) => setImmediate(r));
    expect(g.reads()).toBe(2); // the waiting requests joined the new read, none started a third
    g.release(1, true);
    expect(await before).toEqual([true, true, true]);
    expect(await after).toEqual([true, true]);
  });

  it('a failed read counts as off until the next read', async () => {
    let clock = 0;
    let calls = 0;
    const flag = maintenanceFlag(
      async () => {
        calls++;
        throw new Error('settings unreadable');
      },
      () => clock,
    );
    expect(await answers(flag, 3)).toEqual([false, false, false]);
    expect(calls).toBe(1);
    clock += 2_001;
    expect(await answers(flag, 1)).toEqual([false]);
    expect(calls).toBe(2);
  });
});
