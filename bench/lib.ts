import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { connectDb, type DbHandle } from '../apps/server/src/db/connect';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import type { AppContext } from '../apps/server/src/context';
import { createMailer } from '../apps/server/src/modules/mail/mailer';
import { verify } from '../apps/server/src/modules/ledger/service';
import { createUser, fundDeposit, type TestUser } from '../apps/server/src/test/factories';
import type { DB } from '../apps/server/src/db/types';
import { benchPort, type BenchPortName } from './ports';

export { benchPort, checkBenchPorts, type BenchPortName } from './ports';

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** BENCH_DB=pglite runs the benches on an in-memory PGlite (the default every new user runs). */
export const ON_PGLITE = process.env.BENCH_DB === 'pglite';

/** BENCH_POOL overrides the server's pool size in the wallet and transfer benches (pool sizing). */
export const POOL = process.env.BENCH_POOL ? Number(process.env.BENCH_POOL) : undefined;

/** A fresh schema on the benchmark database (or a fresh in-memory PGlite), migrated, and a context on it. */
export async function benchContext(poolSize = 20): Promise<{ ctx: AppContext; handle: DbHandle; schema: string; drop: () => Promise<void> }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  if (!ON_PGLITE) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const handle = ON_PGLITE ? await connectDb({}) : await connectDb({ databaseUrl: DATABASE_URL, schema, poolSize });
  await migrateToLatest(handle.db, ON_PGLITE ? undefined : schema);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'usdt-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(ON_PGLITE ? {} : { DATABASE_URL }),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    RATE_LIMIT_AUTH_PER_MIN: '1000000',
    RATE_LIMIT_MONEY_PER_MIN: '1000000',
  });
  const ctx: AppContext = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    secret: config.sessionSecret!,
    mailer: createMailer({ from: 'x@y', dataDir, log: pino({ level: 'silent' }), timeoutMs: 30_000 }),
    now: () => new Date(),
    log: pino({ level: 'silent' }),
  };
  return {
    ctx,
    handle,
    schema,
    drop: async () => {
      await handle.close();
      if (ON_PGLITE) return;
      // BENCH_KEEP=1 leaves the schema to look into (EXPLAIN ANALYZE a query over what the bench wrote).
      if (process.env.BENCH_KEEP === '1') return console.log(`  (schema ${schema} kept: drop schema ${schema} cascade)`);
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

/** The app on the port `portVar` names (default BENCH_PORT; unset: a free port); `logger` as buildApp takes it (default: no logging). */
export async function listen(ctx: AppContext, logger: boolean | object = false, portVar: BenchPortName = 'BENCH_PORT') {
  const app = await buildApp({ ctx, logger });
  await app.listen({ port: benchPort(portVar), host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

export async function load(
  url: string,
  opts: {
    connections: number;
    seconds: number;
    headers?: Record<string, string>;
    /** each request's headers in turn (requests spread over several users' tokens) */
    headerCycle?: Record<string, string>[];
    method?: 'GET' | 'POST';
    body?: string;
  },
) {
  let turn = 0;
  const cycle = opts.headerCycle;
  const r = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers ?? {},
    method: opts.method ?? 'GET',
    ...(opts.body ? { body: opts.body } : {}),
    ...(cycle?.length
      ? {
          requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, ...cycle[turn++ % cycle.length] } }) }],
        }
      : {}),
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts };
}

/**
 * The same load from outside this process: autocannon's CLI as a child process (its own event
 * loop, as a harness outside the server would be), one fixed set of headers. On a small machine
 * the generator then competes with the server and the database for the cores instead of sharing
 * the server's thread, which favours a bare route most.
 */
export function loadOutside(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string> }) {
  const cli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
  const args = [cli, '-c', String(opts.connections), '-d', String(opts.seconds), '-j'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise<{ rps: number; p50: number; p99: number; non2xx: number }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const r = JSON.parse(out) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number };
        resolve({ rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
      } catch (err) {
        reject(new Error(`autocannon printed no result: ${String(err)}`));
      }
    });
  });
}

export function line(label: string, value: string): void {
  console.log(`${label.padEnd(58)} ${value}`);
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

/** `count` new users, each with `amount` USDT deposited, in order. */
export async function fundedUsers(ctx: AppContext, count: number, amount: number): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let i = 0; i < count; i++) {
    const u = await createUser(ctx.db, ctx.secret);
    await fundDeposit(ctx.db, u.id, amount);
    users.push(u);
  }
  return users;
}

/** A figure beside its baseline: "0.42×". */
export function ratio(figure: number, baseline: number): string {
  return baseline > 0 ? `${(figure / baseline).toFixed(2)}×` : 'n/a';
}

/** `ledger:verify` after a bench, and how long it took (an operator runs it on the whole ledger). */
export async function verifyLine(db: DB): Promise<string> {
  const started = performance.now();
  const r = await verify(db);
  const took = `${((performance.now() - started) / 1000).toFixed(2)} s`;
  return r.ok
    ? `OK (${r.entries.toLocaleString()} entries, ${r.accounts.toLocaleString()} accounts, ${took})`
    : `BROKEN after ${took} ${JSON.stringify(r).slice(0, 300)}`;
}
