import { randomBytes } from 'node:crypto';
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

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema on the benchmark database, migrated, and a context on it. */
export async function benchContext(poolSize = 20): Promise<{ ctx: AppContext; handle: DbHandle; drop: () => Promise<void> }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = await connectDb({ databaseUrl: DATABASE_URL, schema, poolSize });
  await migrateToLatest(handle.db, schema);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'usdt-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    RATE_LIMIT_AUTH_PER_MIN: '1000000',
  });
  const ctx: AppContext = {
    config,
    db: handle.db,
    dbKind: 'postgres',
    secret: config.sessionSecret!,
    mailer: createMailer({ from: 'x@y', dataDir, log: pino({ level: 'silent' }) }),
  };
  return {
    ctx,
    handle,
    drop: async () => {
      await handle.close();
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export async function listen(ctx: AppContext) {
  const app = await buildApp({ ctx, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

export async function load(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string },
) {
  const r = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    headers: opts.headers ?? {},
    method: opts.method ?? 'GET',
    ...(opts.body ? { body: opts.body } : {}),
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

export function line(label: string, value: string): void {
  console.log(`${label.padEnd(58)} ${value}`);
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}
