import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/app';
import {
  checkAcknowledged,
  count,
  freePort,
  newTarget,
  seedUsers,
  startLoad,
  startServer,
  verifyLedger,
  withDb,
  type LoadResult,
  type ServerProc,
  type Target,
} from '../test/faults/procs';

/**
 * The server killed with -9 in the middle of a load of transfers and stakes, restarted on the
 * same data (the PGlite directory, or the PostgreSQL database), again and again: every restart
 * comes up, the ledger verifies, and every operation that was answered 2xx is there. Then a
 * SIGTERM under load: requests in flight are answered, the process exits 0 within a bound.
 * Runs on the database of the project (PGlite, and PostgreSQL with TEST_DATABASE_URL).
 */
const KILLS = 2;
const OPS_BEFORE_KILL = 60;
const DRAIN_BOUND_MS = 20_000;

describe(`kill -9 and SIGTERM under load (${testDbKind}, real processes)`, () => {
  let t: Target;
  const servers: ServerProc[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  });
  afterAll(async () => t?.drop());
  const start = async () => {
    const s = startServer(t, await freePort());
    servers.push(s);
    await s.ready(60_000);
    return s;
  };
  const acks: LoadResult[] = [];

  it(`loses no acknowledged operation over ${KILLS} kills -9 mid-load`, async () => {
    t = await newTarget(testDbKind);
    const users = await seedUsers(t, 12, 100_000);
    for (let k = 0; k < KILLS; k++) {
      const s = await start();
      const load = startLoad(s.url, users, { concurrency: 8, maxOps: 10_000 });
      // Kill once enough have been acknowledged: requests are in flight at that moment.
      while (load.result.transfers.length + [...load.result.stakes.values()].reduce((a, b) => a + b, 0) < OPS_BEFORE_KILL)
        await new Promise((r) => setTimeout(r, 20));
      s.proc.kill('SIGKILL');
      await s.exited;
      load.stop();
      const r = await load.done;
      acks.push(r);
      // Nothing but 2xx or an answer refused for balance; never a 5xx.
      expect(count(r, (st) => st >= 500)).toBe(0);
    }
    // A last start after the last kill proves the data comes up again; then the check from outside.
    const s = await start();
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const found = await withDb(t, async (h) => {
      const report = await verifyLedger(h);
      expect(report).toMatchObject({ ok: true, totalOfAllBalances: '0' });
      return checkAcknowledged(h, acks);
    });
    expect(found.missing).toEqual([]);
    const sent = acks.reduce((n, a) => n + [...a.statuses.values()].reduce((x, y) => x + y, 0) + a.noAnswer, 0);
    console.log(
      `[faults] ${testDbKind}: ${KILLS} kills -9, ${KILLS + 1} restarts, ${sent} requests, ${found.transfers} transfers + ${found.stakes} stakes acknowledged, all present, ledger verified`,
    );
  }, 120_000);

  it('SIGTERM under load answers the requests in flight and exits 0 within the bound', async () => {
    t ??= await newTarget(testDbKind);
    const users = await seedUsers(t, 8, 100_000);
    const s = await start();
    const load = startLoad(s.url, users, { concurrency: 8, maxOps: 10_000 });
    while (load.result.transfers.length < 20) await new Promise((r) => setTimeout(r, 20));
    load.result.mark();
    const signalled = Date.now();
    s.proc.kill('SIGTERM');
    const code = await s.exited;
    const took = Date.now() - signalled;
    load.stop();
    const r = await load.done;
    expect(code).toBe(0);
    expect(took).toBeLessThan(DRAIN_BOUND_MS);
    // Requests already accepted when the signal came were finished, not dropped.
    expect(r.answeredAfterMark).toBeGreaterThan(0);
    expect(count(r, (st) => st >= 500 && st !== 503)).toBe(0);
    const found = await withDb(t, async (h) => {
      expect((await verifyLedger(h)).ok).toBe(true);
      return checkAcknowledged(h, [r]);
    });
    expect(found.missing).toEqual([]);
    console.log(
      `[faults] ${testDbKind}: SIGTERM under load: exit 0 in ${took} ms, ${r.answeredAfterMark} in-flight requests answered after the signal, ${found.transfers + found.stakes} acknowledged, all present`,
    );
  }, 120_000);
});
