import { auth as authApi } from '@app/core/contracts/auth';
import { health } from '@app/core/contracts/health';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inject } from '../test/api';
import { useTestApp } from '../test/app';

const METRICS_TOKEN = 'schema-tests-metrics-token-012345';

/**
 * A database whose schema is behind, or gone (dropped and created again empty under the running
 * app), on either engine (issue 47, item 4): `select 1` still answers, so health checks the
 * schema too and answers 503 saying 'schema'; a query on a table or function that is not there
 * answers 503 with Retry-After like the other storage faults, never 500. faults/pg-dropped.procs.test.ts
 * does the same with the database itself dropped and created again under a real server process.
 */
describe('a database without its schema', () => {
  const t = useTestApp({ METRICS_TOKEN });
  const healthWithDetails = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    return { status: res.statusCode, body: res.json() as unknown };
  };

  it('health notices a schema behind its newest migration (the check is cached a few seconds)', async () => {
    const { latestMigration } = await import('../db/migrate');
    const { schemaFailure } = await import('../modules/health/checks');
    expect(await schemaFailure(t.ctx)).toBeUndefined();
    const latest = await latestMigration();
    const row = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${latest}`.execute(t.db);
    expect(row.rows).toHaveLength(1);
    await sql`delete from kysely_migration where name = ${latest}`.execute(t.db);
    try {
      // Cached: the same answer within the time; then asked again.
      expect(await schemaFailure(t.ctx)).toBeUndefined();
      expect(await schemaFailure(t.ctx, Date.now() + 10_000)).toEqual({ reason: 'schema', code: 'behind', at: expect.any(String) });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${latest}, ${row.rows[0]!.timestamp})`.execute(t.db);
    }
    expect(await schemaFailure(t.ctx, Date.now() + 20_000)).toBeUndefined();
  });

  it('answers 503 with Retry-After (not 500) once the schema is gone, and health answers 503 with reason schema', async () => {
    const login = () => inject(t.app, authApi.login, { body: { email: 'nobody@example.com', password: 'Secret123' } });
    expect((await login()).statusCode).toBe(401);
    expect((await healthWithDetails()).status).toBe(200);

    // The database emptied under the app: what `drop database` + `create database` leaves.
    await sql`drop schema public cascade`.execute(t.db);
    await sql`create schema public`.execute(t.db);

    const res = await login();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toMatchObject({ success: false, message: 'Service temporarily unavailable' });
    // A signed-in route: the session check's function is gone too.
    const wallet = await t.app.inject({ method: 'GET', url: '/api/user/wallet', headers: { authorization: 'Bearer not-a-real-token-but-long-enough-000000' } });
    expect(wallet.statusCode, wallet.body).toBe(503);

    await expect.poll(async () => (await healthWithDetails()).status, { timeout: 10_000, interval: 500 }).toBe(503);
    expect(await healthWithDetails()).toMatchObject({
      status: 503,
      body: { success: false, message: 'Service temporarily unavailable', data: { status: 'down', db: 'ok', failure: { reason: 'schema', code: 'missing' } } },
    });
    const anonymous = await inject(t.app, health.check);
    expect(anonymous.statusCode).toBe(503);
    expect(anonymous.json()).toMatchObject({ success: false, data: { status: 'down' } });
  }, 30_000);
});
