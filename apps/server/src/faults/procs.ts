import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { connectDb, type DbHandle } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { lockDataDir } from '../lib/data-dir-lock';
import * as ledger from '../modules/ledger/service';

/** Real server and CLI processes for the fault tests: what an operator runs, started the same way. */
export const root = path.resolve(import.meta.dirname, '../../../..');
const execFileP = promisify(execFile);

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Target {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  databaseUrl?: string;
  secret: string;
  drop(): Promise<void>;
}

/** A fresh PGlite data directory, or a fresh PostgreSQL database beside TEST_DATABASE_URL's (dropped at the end). */
export async function newTarget(kind: 'pglite' | 'postgres'): Promise<Target> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'usdt-fault-'));
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
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], { cwd: root, env: processEnv(t, port, extra), stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  return {
    proc,
    url,
    log: () => log,
    exited,
    ready: async (timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited (${proc.exitCode ?? proc.signalCode}):\n${log}`);
        if (Date.now() > deadline) throw new Error(`server not ready in ${timeoutMs} ms:\n${log}`);
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
        if (res?.status === 200) return;
        await new Promise((r) => setTimeout(r, 150));
      }
    },
  };
}

/** Runs the CLI as a process; a failing exit is an answer, not an exception. */
export async function cli(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 180_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await execFileP(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], { cwd: root, env, timeout: timeoutMs });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * Opens the target's database from the test process, as its one user (for PGlite under the
 * DATA_DIR lock, so this also proves no server holds it), runs fn, and closes it.
 */
export async function withDb<T>(t: Target, fn: (h: DbHandle) => Promise<T>): Promise<T> {
  const lock = t.kind === 'pglite' ? await lockDataDir(t.dataDir, 'cli', () => undefined) : undefined;
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
