import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDbKind, type TestApp } from '../test/app';
import { createUser, fundDeposit } from '../test/factories';
import { startJobs } from '../jobs/scheduler';
import { inject } from '../test/api';
import { admin as adminApi } from '@app/core/contracts/admin';
import { health as healthApi } from '@app/core/contracts/health';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample in Prometheus text format, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return undefined;
}

const quietLog = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} } as unknown as FastifyBaseLogger;

describe('/metrics', () => {
  let t: TestApp;
  let noToken: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, METRICS_AGGREGATE_SECONDS: '0' });
    noToken = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await noToken.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('does not exist without METRICS_TOKEN and refuses a missing or wrong token', async () => {
    const none = await noToken.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Not found' });
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Unauthorized' });
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('counts requests per matched route pattern, not per raw URL, with a latency histogram', async () => {
    const before = await scrape();
    const health = (text: string) => sample(text, 'http_requests_total', { method: 'GET', route: '/api/health', status_code: '200' }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await inject(t.app, healthApi.check)).statusCode).toBe(200);
    for (const id of ['11', '12', '13']) expect((await inject(t.app, adminApi.user, { params: { id } })).statusCode).toBe(401);
    await t.app.inject({ method: 'GET', url: '/api/nothing-here/42' });
    const after = await scrape();
    expect(health(after) - health(before)).toBe(3);
    expect(sample(after, 'http_requests_total', { route: '/api/admin/users/:id', status_code: '401' })).toBe(3);
    expect(after).not.toContain('/api/admin/users/11');
    expect(after).not.toContain('/api/nothing-here');
    expect(sample(after, 'http_requests_total', { route: 'unmatched', status_code: '404' })).toBe(1);
    expect(sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/health' })).toBeGreaterThanOrEqual(3);
    expect(sample(after, 'http_request_duration_seconds_bucket', { route: '/api/health', le: '+Inf' })).toBeGreaterThanOrEqual(3);
  });

  it('reports ledger totals, payments by status and the pool (PostgreSQL) read on scrape', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const kinds = (text: string) => [...text.matchAll(/^ledger_balance_micro_usdt\{kind="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])] as const);
    const before = new Map(kinds(await scrape()));
    await fundDeposit(t.db, u.id, '12.5');
    const after = await scrape();
    const now = new Map(kinds(after));
    // All account kinds together sum to zero; the deposit moved 12.5 USDT into users' accounts.
    expect([...now.values()].reduce((a, b) => a + b, 0)).toBe(0);
    const moved = [...now].filter(([k, v]) => v !== (before.get(k) ?? 0));
    expect(moved.map(([, v]) => v).some((v) => v >= 12_500_000)).toBe(true);
    expect(sample(after, 'ledger_entries')).toBeGreaterThanOrEqual(1);
    expect(after).toContain('# TYPE payments gauge');
    if (testDbKind === 'postgres') {
      expect(sample(after, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'db_pool_connections', { state: 'waiting' })).toBe(0);
    } else {
      expect(sample(after, 'db_pool_connections', { state: 'total' })).toBeUndefined();
    }
    expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('computes the table aggregates at most once per METRICS_AGGREGATE_SECONDS, and reads the ledger size off the primary key', async () => {
    const cached = await createTestApp({ METRICS_TOKEN: TOKEN });
    try {
      const get = async () => (await cached.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
      const u = await createUser(cached.db, cached.ctx.secret);
      const first = await get();
      const deposits = (text: string) => sample(text, 'ledger_balance_micro_usdt', { kind: 'deposit' }) ?? 0;
      await fundDeposit(cached.db, u.id, '7');
      const second = await get();
      // Within the default 30 s the totals are the ones computed for the first scrape...
      expect(deposits(second)).toBe(deposits(first));
      // ...while the entry count, an index read, moves at once.
      const maxId = await cached.db
        .selectFrom('ledger_entries')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      expect(sample(second, 'ledger_entries')).toBe(Number(maxId.id));
    } finally {
      await cached.close();
    }
  });

  it('counts job runs with their durations, and /api/health shows each job’s last tick', async () => {
    let runs = 0;
    const jobs = startJobs(
      t.ctx,
      quietLog,
      [
        { name: 'probe-ok', intervalMs: 60_000, run: async () => void runs++ },
        { name: 'probe-fail', intervalMs: 60_000, run: async () => Promise.reject(new Error('boom')) },
      ],
      { firstDelayMs: 0 },
    );
    await expect.poll(async () => sample(await scrape(), 'job_runs_total', { job: 'probe-fail', outcome: 'failed' })).toBe(1);
    await expect.poll(async () => sample(await scrape(), 'job_runs_total', { job: 'probe-ok', outcome: 'ok' })).toBe(1);
    await jobs.stop();
    expect(runs).toBe(1);
    const text = await scrape();
    expect(sample(text, 'job_duration_seconds_count', { job: 'probe-ok' })).toBe(1);
    const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(health.statusCode).toBe(200);
    const body = health.json();
    expect(body.success).toBe(true);
    expect(body.data.db).toBe('ok');
    expect(body.data.jobs.enabled).toBe(false);
    expect(body.data.jobs.last['probe-ok']).toMatchObject({ outcome: 'ok', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(body.data.jobs.last['probe-fail']).toMatchObject({ outcome: 'failed' });
  });

  it('reports the mail queue (pending count, oldest age) on /api/health and /metrics', async () => {
    await sql`delete from mail_outbox`.execute(t.db);
    await sql`insert into mail_outbox (to_email, kind, status, created_at) values
      ('a@example.test', 'password_changed', 'pending', now() - interval '90 seconds'),
      ('b@example.test', 'password_changed', 'pending', now()),
      ('c@example.test', 'password_changed', 'sent', now())`.execute(t.db);
    const health = (await t.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(health.data.mail.pending).toBe(2);
    expect(health.data.mail.oldestAgeSeconds).toBeGreaterThanOrEqual(90);
    const text = await scrape();
    expect(sample(text, 'mail_outbox', { status: 'pending' })).toBe(2);
    expect(sample(text, 'mail_outbox', { status: 'sent' })).toBe(1);
  });
});
