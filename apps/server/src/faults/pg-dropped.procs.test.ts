import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/app';
import { freePort, newTarget, seedUsers, startServer, type ServerProc, type Target } from '../test/faults/procs';

/** /api/health shows its details (db, disk, failure) only with this token or an admin session. */
const METRICS_TOKEN = 'fault-tests-metrics-token-0123456';

/**
 * The server's role loses its right to log in, then its database is dropped, under a running
 * server process: every request answers 503 'Service temporarily unavailable' with Retry-After
 * (never 500), /api/health answers 503, and once the role may log in again the same process
 * serves again; once the database is created again, empty, requests still answer 503 and health
 * says the schema is missing. The server runs as a role of its own (owner of a database of its own), so the
 * shared PostgreSQL and its other users are never touched.
 */
describe.runIf(testDbKind === 'postgres')('a revoked role and a dropped database (real server process)', () => {
  let base: Target;
  let server: ServerProc | undefined;
  let admin: pg.Client | undefined;
  const role = `fault_role_${Math.random().toString(36).slice(2, 10)}`;
  afterAll(async () => {
    if (server && server.proc.exitCode === null) server.proc.kill('SIGKILL');
    await base?.drop();
    await admin?.query(`drop role if exists ${role}`).catch(() => undefined);
    await admin?.end();
  });

  it('answers 503 (not 500) while the role may not log in and after the database is dropped; recovers when the role is back', async () => {
    base = await newTarget('postgres');
    const dbName = new URL(base.databaseUrl!).pathname.slice(1);
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create role ${role} login`);
    await admin.query(`alter database ${dbName} owner to ${role}`);
    const url = new URL(base.databaseUrl!);
    url.username = role;
    const t: Target = { ...base, databaseUrl: url.toString() };
    const users = await seedUsers(t, 2, 1_000);
    server = startServer(t, await freePort(), { METRICS_TOKEN });
    await server.ready();
    const pid = server.proc.pid;
    const transfer = () =>
      fetch(`${server!.url}/api/user/fund-transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${users[0]!.token}` },
        body: JSON.stringify({ username: users[1]!.username, amount_usd: 10, type: 'deposit' }),
      });
    const health = async () => {
      const res = await fetch(`${server!.url}/api/health`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    // pg_terminate_backend only signals: until the backends are gone a request may meet one dying
    // mid-query (a connection error, Retry-After 5) instead of the refused login it is here to see.
    const cutOff = async () => {
      await admin!.query(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1`, [role]);
      await expect
        .poll(async () => Number((await admin!.query(`select count(*) as n from pg_stat_activity where usename = $1`, [role])).rows[0].n), { timeout: 10_000 })
        .toBe(0);
    };
    expect((await transfer()).status).toBe(200);

    // 1. The role may no longer log in (28000), and its open connections are cut.
    await admin.query(`alter role ${role} nologin`);
    await cutOff();
    for (let i = 0; i < 3; i++) {
      const res = await transfer();
      expect(res.status, server.log().slice(-2000)).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(await res.json()).toEqual({ success: false, code: 'UNAVAILABLE', message: 'Service temporarily unavailable' });
    }
    const wallet = await fetch(`${server.url}/api/user/wallet`, { headers: { authorization: `Bearer ${users[0]!.token}` } });
    expect(wallet.status).toBe(503);
    expect(await health()).toMatchObject({ status: 503, body: { success: false, data: { db: 'down' } } });

    // 2. Back: the same process serves again.
    await admin.query(`alter role ${role} login`);
    expect(await health()).toMatchObject({ status: 200, body: { data: { db: 'ok' } } });
    expect((await transfer()).status).toBe(200);

    // 3. The database dropped under it (3D000 on every new connection).
    await admin.query(`drop database ${dbName} with (force)`);
    for (let i = 0; i < 3; i++) {
      const res = await transfer();
      expect(res.status, server.log().slice(-2000)).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
    }
    expect(await health()).toMatchObject({ status: 503, body: { success: false, data: { db: 'down' } } });

    // 4. Created again, empty (issue 47): connections work, the schema is gone. Every request is
    // still 503 with Retry-After (a missing table or function, never 500), and health says why.
    await admin.query(`create database ${dbName} owner ${role}`);
    for (let i = 0; i < 3; i++) {
      const res = await transfer();
      expect(res.status, server.log().slice(-2000)).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
    }
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'Secret123' }),
    });
    expect(login.status, server.log().slice(-2000)).toBe(503);
    // Health asks for the schema at most every SCHEMA_CHECK_TTL_MS (5 s): it says so within that.
    await expect.poll(async () => (await health()).status, { timeout: 10_000, interval: 500 }).toBe(503);
    expect(await health()).toMatchObject({
      status: 503,
      body: { success: false, data: { status: 'down', db: 'ok', failure: { reason: 'schema', code: 'missing' } } },
    });
    expect(server.log()).not.toMatch(/unhandled error/);
    expect(server.proc.pid).toBe(pid);
    expect(server.proc.exitCode).toBeNull();
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    console.log(
      '[faults] postgres: role without login → 503 + health 503, back → 200 in the same process; database dropped → 503 + health 503; created again empty → 503 + health 503 (schema), 0 × 500',
    );
  }, 60_000);
});
