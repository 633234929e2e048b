import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDb, type DbHandle } from '../db/connect';
import * as ledger from '../modules/ledger/service';
import { utcDay } from '@app/core/days';
import { testDbKind } from '../test/app';
import { createUser, fundDeposit, type TestUser } from '../test/factories';
import { startServer, type ServerProcess } from '../test/processes';
import { roiCredits } from '../test/roi-credits';
import { seededRandom } from '../test/seeded-random';
import { adminQuery } from '../test/template-db';

/**
 * Scale-out on real processes (issue 11): three servers started at the same moment on one empty
 * PostgreSQL database with REDIS_URL, money operations spread over them, the ROI run triggered
 * on all three at once for ten days, and the per-IP rate limit shared through Redis.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SEED = Number(process.env.SCALE_SEED ?? Date.now() % 1_000_000);
const OPS = Number(process.env.SCALE_OPS ?? 300);
const LIMIT = 5;
const migrationFiles = readdirSync(path.resolve(import.meta.dirname, '../db/migrations')).filter((f) => /^\d{4}_[\w-]+\.ts$/.test(f));

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

describe.runIf(testDbKind === 'postgres' && pgUrl)('scale-out: three processes, one PostgreSQL, Redis', () => {
  const dbName = `scale_${randomBytes(5).toString('hex')}`;
  /** One prefix for the three processes (they share counters), its own for this run. */
  const rateLimitPrefix = `scale-out-${randomBytes(4).toString('hex')}:`;
  const dbUrl = (pgUrl ?? '').replace(/\/[^/?]*(\?|$)/, `/${dbName}$1`);
  const secret = randomBytes(32).toString('hex');
  const dirs: string[] = [];
  let servers: ServerProcess[] = [];
  let handle: DbHandle | undefined;

  const admin = (q: string) => adminQuery(pgUrl!, q);

  afterAll(async () => {
    const codes = await Promise.all(servers.map((s) => s.stop()));
    await handle?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    expect(codes).toEqual(servers.map(() => 0));
  });

  it('starts three at once on an empty database and migrates once', { timeout: 120_000 }, async () => {
    await admin(`create database ${dbName}`);
    const env = (i: number) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `usdt-scale-${i}-`));
      dirs.push(dir);
      return {
        DATABASE_URL: dbUrl,
        REDIS_URL: redisUrl,
        SESSION_SECRET: secret,
        DATA_DIR: dir,
        WEB_DIST: path.join(dir, 'no-web'),
        RATE_LIMIT_AUTH_PER_MIN: String(LIMIT),
        // This run's counters are its own: the servers believe no forwarded address, so every
        // request counts against 127.0.0.1, and under the shared default prefix a run within a
        // minute of another (or of another file's servers on the same Redis) was refused from its
        // first request (a red fresh-clone CI, 2026-12-07).
        RATE_LIMIT_REDIS_PREFIX: rateLimitPrefix,
      };
    };
    const started = Date.now();
    servers = await Promise.all([0, 1, 2].map((i) => startServer(env(i))));
    console.log(`scale-out: 3 processes healthy ${Date.now() - started} ms after a simultaneous start`);
    handle = await connectDb({ databaseUrl: dbUrl });
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db);
    expect(applied.rows.map((r) => `${r.name}.ts`)).toEqual([...migrationFiles].sort());
    for (const s of servers) expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  });

  it('spreads random money operations over the three, then runs ROI on all three at once for ten days, each stake-day once', { timeout: 240_000 }, async () => {
    const db = handle!.db;
    const random = seededRandom(SEED); // replay a failing run with SCALE_SEED
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
    const users: TestUser[] = [];
    for (let i = 0; i < 12; i++) {
      const u = await createUser(db, secret);
      await fundDeposit(db, u.id, 2000);
      users.push(u);
    }
    const { token: adminToken } = await createUser(db, secret, { isAdmin: true });
    const call = async (s: ServerProcess, method: string, url: string, token: string, body?: unknown) => {
      const res = await fetch(`${s.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as { success: boolean; message: string } };
    };

    // Random stakes and transfers, 16 in flight, each sent to a random process.
    const plan = Array.from({ length: OPS }, () => {
      const u = pick(users);
      const s = pick(servers);
      if (random() < 0.4) return { s, run: () => call(s, 'POST', '/api/stake/create', u.token, { amount_usd: 50 + 10 * Math.floor(random() * 16) }) };
      const to = pick(users.filter((x) => x !== u));
      return {
        s,
        run: () => call(s, 'POST', '/api/user/fund-transfer', u.token, { username: to.username, amount_usd: 10 + Math.floor(random() * 40), type: 'deposit' }),
      };
    });
    const statuses = new Map<number, number>();
    const perServer = new Map<string, number>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < plan.length) {
          const op = plan[next++]!;
          const r = await op.run();
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          perServer.set(op.s.url, (perServer.get(op.s.url) ?? 0) + 1);
          if (r.status !== 200) expect.soft(r.body).toMatchObject({ success: false, message: expect.stringMatching(/Insufficient balance/) });
        }
      }),
    );
    console.log(
      `scale-out: seed ${SEED}, ${OPS} ops in ${Date.now() - started} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}, per process ${[...perServer.values()].join('/')}`,
    );
    expect([...statuses.keys()].every((s) => s === 200 || s === 400)).toBe(true);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(OPS / 2);
    expect(perServer.size).toBe(3);

    const stakes = await db.selectFrom('stakes').select(['id', 'created_at']).execute();
    expect(stakes.length).toBeGreaterThan(0);
    const today = utcDay();
    for (let d = 1; d <= 10; d++) {
      const date = addDays(today, d);
      const answers = await Promise.all(servers.map((s) => call(s, 'POST', '/api/admin/jobs/roi', adminToken, { date })));
      expect(
        answers.map((a) => a.status),
        `ROI for ${date}: ${JSON.stringify(answers.map((a) => a.body))}`,
      ).toEqual([200, 200, 200]);
    }
    const dup = await sql<{
      n: bigint;
    }>`select count(*) as n from (select stake_id, for_date from ${roiCredits} r group by stake_id, for_date having count(*) > 1) d`.execute(db);
    expect(Number(dup.rows[0]!.n)).toBe(0);
    const credited = await sql<{ n: bigint }>`select count(*) as n from ${roiCredits} r`.execute(db);
    // Every stake, made today, earns on each of the next ten days exactly once.
    expect(Number(credited.rows[0]!.n)).toBe(stakes.length * 10);
    const v = await ledger.verify(db);
    expect(v.ok).toBe(true);
    expect(v.totalOfAllBalances).toBe('0');
    console.log(`scale-out: ${stakes.length} stakes, ${credited.rows[0]!.n} ROI credits over 10 days x 3 processes, ledger OK (${v.entries} entries)`);
  });

  it('shares the per-IP rate limit through Redis: N per minute across the three processes', async () => {
    // A fresh client address per run (IPv4: the limiter groups IPv6 by prefix), so counters left
    // in Redis by an earlier run do not count.
    const ip = `10.${[...randomBytes(3)].join('.')}`;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT * 3; i++) {
      const s = servers[i % 3]!;
      const res = await fetch(`${s.url}/api/auth/checkuser?referral_id=NOBODY${i}`, { headers: { 'x-forwarded-for': ip } });
      statuses.push(res.status);
    }
    console.log(`scale-out: rate limit ${LIMIT}/min, statuses in order ${statuses.join(',')}`);
    // Each process saw only N requests: with per-process counters none would be refused.
    expect(statuses.filter((s) => s !== 429)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
  });
});
