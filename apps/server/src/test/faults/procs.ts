import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { connectDb, type DbHandle } from '../../db/connect';
import { migrateToLatest } from '../../db/migrate';
import { holderIsGone, waitForDataDirLock } from '../../lib/data-dir-lock';
import * as ledger from '../../modules/ledger/service';
import { freePort, spawnProgram, untilHealthy } from '../processes';
import { refuseInEngineFreeFile } from '../file-kinds';
import { newDataDir } from '../template-db';

/** Real server and CLI processes for the fault tests: what an operator runs, started the same way. */
export const root = path.resolve(import.meta.dirname, '../../../../..');

export { freePort };

export interface Target {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  secret: string;
  drop(): Promise<void>;
}

/**
 * A PGlite data directory (a copy of the run's migrated template; `empty` for one nobody has opened
 * yet), or a fresh PostgreSQL database beside TEST_DATABASE_URL's (dropped at the end).
 */
export async function newTarget(kind: 'pglite' | 'postgres', opts: { empty?: boolean } = {}): Promise<Target> {
  refuseInEngineFreeFile(expect.getState().testPath, 'newTarget');
  // A PGlite target starts from the run's migrated data directory: each server and CLI process here
  // would otherwise run initdb and every migration first.
  const dataDir = kind === 'pglite' && !opts.empty ? newDataDir('usdt-fault-') : mkdtempSync(path.join(os.tmpdir(), 'usdt-fault-'));
  const secret = randomBytes(32).toString('hex');
  if (kind === 'pglite') return { kind, dataDir, secret, drop: async () => undefined };
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is needed for the PostgreSQL fault tests');
  const name = `fault_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    kind,
    dataDir,
    databaseUrl: url.toString(),
    secret,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function processEnv(t: Target, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: t.dataDir,
    DATABASE_URL: t.databaseUrl ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JOBS_ENABLED: 'false',
    WEB_DIST: path.join(t.dataDir, 'no-web'),
    SMTP_URL: '',
    SESSION_SECRET: t.secret,
    ...extra,
  };
}

export interface ServerProc {
  proc: ChildProcess;
  url: string;
  log(): string;
  exited: Promise<number | null>;
  /** Resolves once /api/health answers 200; rejects if the process exits first or after timeoutMs. */
  ready(timeoutMs?: number): Promise<void>;
}

export function startServer(t: Target, port: number, extra: Record<string, string> = {}): ServerProc {
  const p = spawnProgram('server', [], processEnv(t, port, extra));
  const url = `http://127.0.0.1:${port}`;
  return { proc: p.child, url, log: p.output, exited: p.exited, ready: (timeoutMs) => untilHealthy(p, url, timeoutMs) };
}

/**
 * Opens the target's database from the test process, as its one user (for PGlite under the
 * DATA_DIR lock, so this also proves no server holds it; the lock of a process killed with -9 is
 * waited for until it may be taken over), runs fn, and closes it.
 */
export async function withDb<T>(t: Target, fn: (h: DbHandle) => Promise<T>): Promise<T> {
  const started = Date.now();
  const lock =
    t.kind === 'pglite'
      ? await waitForDataDirLock(
          t.dataDir,
          'cli',
          () => undefined,
          (busy) => busy.holder !== undefined && holderIsGone(busy.holder) && Date.now() - started < 15_000,
        )
      : undefined;
  try {
    const h = await connectDb({ databaseUrl: t.databaseUrl, pgliteDir: t.kind === 'pglite' ? path.join(t.dataDir, 'pglite') : undefined, poolSize: 4 });
    try {
      await migrateToLatest(h.db);
      return await fn(h);
    } finally {
      await h.close();
    }
  } finally {
    await lock?.release();
  }
}

export async function verifyLedger(h: DbHandle): Promise<ledger.VerifyReport> {
  return ledger.verify(h.db);
}

export interface LoadUser {
  id: bigint;
  username: string;
  token: string;
}

/** Users with a session token (signed with the target's secret) and a deposit balance, written straight into the database. */
export async function seedUsers(t: Target, n: number, depositUsd: number): Promise<LoadUser[]> {
  const { createUser, fundDeposit } = await import('../factories');
  return withDb(t, async (h) => {
    const users: LoadUser[] = [];
    for (let i = 0; i < n; i++) {
      const u = await createUser(h.db, t.secret);
      await fundDeposit(h.db, u.id, depositUsd);
      users.push({ id: u.id, username: u.username, token: u.token });
    }
    return users;
  });
}

export interface LoadResult {
  /** Transfer ids the server acknowledged with a 2xx. */
  transfers: string[];
  /** Stakes acknowledged with a 2xx, per user id. */
  stakes: Map<string, number>;
  statuses: Map<number, number>;
  /** Requests that got no HTTP answer (the process was killed or had closed its port). */
  noAnswer: number;
  /** Requests sent before `mark()` was called that were answered 2xx after it. */
  answeredAfterMark: number;
  mark(): void;
}

/**
 * A bounded load of transfers (two in three) and stakes (one in three) from `concurrency`
 * workers until `stop()` says so or maxOps were sent. Every 2xx is recorded as acknowledged.
 */
export function startLoad(
  url: string,
  users: LoadUser[],
  opts: { concurrency: number; maxOps: number },
): { result: LoadResult; stop(): void; done: Promise<LoadResult> } {
  let stopped = false;
  let sent = 0;
  let markedAt = Infinity;
  const result: LoadResult = { transfers: [], stakes: new Map(), statuses: new Map(), noAnswer: 0, answeredAfterMark: 0, mark: () => (markedAt = Date.now()) };
  const pick = () => users[Math.floor(Math.random() * users.length)]!;
  const worker = async () => {
    while (!stopped && sent < opts.maxOps) {
      sent++;
      const from = pick();
      let to = pick();
      while (to === from) to = pick();
      const isTransfer = Math.random() < 2 / 3;
      const started = Date.now();
      try {
        const res = await fetch(`${url}/api/${isTransfer ? 'user/fund-transfer' : 'stake/create'}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
          body: JSON.stringify(isTransfer ? { username: to.username, amount_usd: 10, type: 'deposit' } : { amount_usd: 50 }),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json()) as { data?: { id?: string } };
        result.statuses.set(res.status, (result.statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 200 && res.status < 300) {
          if (isTransfer) result.transfers.push(body.data!.id!);
          else result.stakes.set(String(from.id), (result.stakes.get(String(from.id)) ?? 0) + 1);
          if (started < markedAt && Date.now() >= markedAt) result.answeredAfterMark++;
        }
      } catch {
        result.noAnswer++;
        // The server is gone: do not spin.
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const done = Promise.all(Array.from({ length: opts.concurrency }, worker)).then(() => result);
  return { result, stop: () => (stopped = true), done };
}

export function count(result: LoadResult, pred: (status: number) => boolean): number {
  let n = 0;
  for (const [s, c] of result.statuses) if (pred(s)) n += c;
  return n;
}

/** Every acknowledged operation is in the database with its ledger entry; returns what was found. */
export async function checkAcknowledged(h: DbHandle, acks: LoadResult[]): Promise<{ transfers: number; stakes: number; missing: string[] }> {
  const missing: string[] = [];
  const ids = acks.flatMap((a) => a.transfers);
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await h.db
      .selectFrom('ledger_entries')
      .select('idempotency_key')
      .where(
        'idempotency_key',
        'in',
        ids.slice(i, i + 500).map((id) => `transfer:${id}`),
      )
      .execute();
    for (const r of rows) found.add(r.idempotency_key);
  }
  for (const id of ids) if (!found.has(`transfer:${id}`)) missing.push(`transfer ${id}`);
  const acked = new Map<string, number>();
  for (const a of acks) for (const [u, c] of a.stakes) acked.set(u, (acked.get(u) ?? 0) + c);
  let stakes = 0;
  for (const [u, c] of acked) {
    const row = await h.db
      .selectFrom('stakes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', BigInt(u))
      .executeTakeFirstOrThrow();
    // Unanswered stakes may have committed too; acknowledged ones must all be there.
    if (Number(row.n) < c) missing.push(`user ${u}: ${c} stakes acknowledged, ${row.n} found`);
    stakes += c;
  }
  return { transfers: ids.length, stakes, missing };
}
