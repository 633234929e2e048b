import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
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
  type ServerProc,
  type Target,
} from '../test/faults/procs';

/** /api/health shows its details (db, disk, failure) only with this token or an admin session. */
const METRICS_TOKEN = 'fault-tests-metrics-token-0123456';

/**
 * PostgreSQL drops the server's connections under load (its backends terminated, as in a restart
 * or a failover), and then refuses this database for a while: the server process keeps running,
 * answers 503 while the database is away (never 500), says so on /api/health, and serves again
 * once it is back, without a restart. The shared PostgreSQL is never restarted here: the test
 * works on its own database only.
 */
describe.runIf(testDbKind === 'postgres')('PostgreSQL connection loss (real server process)', () => {
  let t: Target;
  let server: ServerProc | undefined;
  let admin: pg.Client | undefined;
  afterAll(async () => {
    if (server && server.proc.exitCode === null) server.proc.kill('SIGKILL');
    if (admin) {
      await admin.query(`alter database ${dbName()} allow_connections true`).catch(() => undefined);
      await admin.end();
    }
    await t?.drop();
  });
  const dbName = () => new URL(t.databaseUrl!).pathname.slice(1);
  const terminate = async () => {
    const r = await admin!.query(`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [
      dbName(),
    ]);
    return (r.rows[0] as { n: number }).n;
  };
  const health = async () => {
    const res = await fetch(`${server!.url}/api/health`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('rides through terminated backends and a database that is away, and recovers by itself', async () => {
    t = await newTarget('postgres');
    const users = await seedUsers(t, 10, 100_000);
    server = startServer(t, await freePort(), { METRICS_TOKEN });
    await server.ready();
    const pid = server.proc.pid;
    // The maintenance connection goes to another database, so terminating this one's backends spares it.
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();

    // 1. Backends terminated three times under load.
    const load = startLoad(server.url, users, { concurrency: 6, maxOps: 100_000 });
    let terminated = 0;
    for (let i = 0; i < 3; i++) {
      while (load.result.transfers.length < 15 * (i + 1)) await new Promise((r) => setTimeout(r, 20));
      terminated += await terminate();
    }
    // Keep the load going until it has gone well past the last termination.
    const after = load.result.transfers.length;
    while (load.result.transfers.length < after + 15) await new Promise((r) => setTimeout(r, 20));
    load.stop();
    const r = await load.done;
    expect(server.proc.exitCode).toBeNull();
    expect(r.noAnswer, server.log()).toBe(0);
    // Only successes and 503s: a request whose connection was cut is a retryable 503, never a 500.
    expect(count(r, (s) => s >= 500 && s !== 503)).toBe(0);

    // 2. The database away: no connection to it is accepted and the open ones are cut.
    await admin.query(`alter database ${dbName()} allow_connections false`);
    await terminate();
    expect(await health()).toMatchObject({ status: 503, body: { success: false, message: 'Service temporarily unavailable', data: { db: 'down' } } });
    const during = await fetch(`${server.url}/api/user/fund-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${users[0]!.token}` },
      body: JSON.stringify({ username: users[1]!.username, amount_usd: 10, type: 'deposit' }),
    });
    expect(during.status).toBe(503);
    expect(await during.json()).toEqual({ success: false, code: 'UNAVAILABLE', message: 'Service temporarily unavailable' });
    expect(server.proc.exitCode).toBeNull();

    // 3. Back: the same process serves again.
    await admin.query(`alter database ${dbName()} allow_connections true`);
    expect(await health()).toMatchObject({ status: 200, body: { success: true, data: { db: 'ok' } } });
    const again = await fetch(`${server.url}/api/user/fund-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${users[0]!.token}` },
      body: JSON.stringify({ username: users[1]!.username, amount_usd: 10, type: 'deposit' }),
    });
    expect(again.status).toBe(200);
    expect(server.proc.pid).toBe(pid);
    expect(server.proc.exitCode).toBeNull();

    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const found = await withDb(t, async (h) => {
      expect((await verifyLedger(h)).ok).toBe(true);
      return checkAcknowledged(h, [r]);
    });
    expect(found.missing).toEqual([]);
    console.log(
      `[faults] postgres connection loss: ${terminated} backends terminated in 3 rounds under load, ${found.transfers + found.stakes} acknowledged (all present), ${count(r, (s) => s === 503)} answered 503, 0 answered 500; database away → health 503, back → 200, same process`,
    );
  }, 120_000);
});
