import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * PGlite has no cross-process lock of its own: two processes with the same data directory open
 * destroy it. So every process that opens DATA_DIR/pglite (the server, the CLI) first takes this
 * exclusive lock and keeps it until the database is closed. proper-lockfile makes the lock an
 * atomic mkdir whose mtime the holder refreshes, plus a holder file naming its pid; a holder
 * killed with -9 stops refreshing, its pid is gone, and its lock counts as stale after STALE_MS,
 * so a restart takes it over without an operator.
 */
export type LockRole = 'server' | 'cli';
export interface LockHolder {
  pid: number;
  role: LockRole;
  host: string;
  since: string;
}
export interface DataDirLock {
  release(): Promise<void>;
}

const STALE_MS = 10_000;
const UPDATE_MS = 2_000;

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by ${holder ? `another ${holder.role === 'server' ? 'server' : 'CLI command'} (pid ${holder.pid})` : 'another process'}; only one process may open it at a time`,
    );
  }
}

const lockPath = (dataDir: string) => path.join(dataDir, 'pglite.lock');
const holderPath = (dataDir: string) => path.join(dataDir, 'pglite.lock.json');

/** Who holds the lock, as far as its holder file says (it can be missing for a moment, or left by a killed holder). */
export function readLockHolder(dataDir: string): LockHolder | undefined {
  try {
    return JSON.parse(readFileSync(holderPath(dataDir), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
}

/**
 * True when the holder file names a process of this host that no longer runs (killed with -9),
 * or ourselves (a container restarts its server under the same pid): its lock will go stale.
 */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === 'ESRCH';
  }
}

export async function isDataDirLocked(dataDir: string): Promise<boolean> {
  mkdirSync(dataDir, { recursive: true });
  return lockfile.check(dataDir, { lockfilePath: lockPath(dataDir), stale: STALE_MS, realpath: false });
}

/** How old a live holder's lock may get before we stop trusting its pid (it may belong to another program by now). */
const PID_TRUST_MS = 5 * 60_000;

function lockAgeMs(dataDir: string): number {
  try {
    return Date.now() - statSync(lockPath(dataDir)).mtimeMs;
  } catch {
    return Infinity; // no lock directory: whatever the holder file says is left over
  }
}

/**
 * Takes the lock now or throws DataDirBusyError. onLost runs if the lock was taken from us: the
 * caller must stop touching the database at once.
 *
 * A lock whose mtime went stale is normally taken over, but PGlite runs queries on the main
 * thread, so a live holder busy with one long query cannot refresh it in time. So a holder that
 * still runs on this host is respected whatever the mtime says (up to PID_TRUST_MS, against a
 * reused pid), and a holder that finds its own lock marked stale after such a stall takes it
 * again if nobody else did.
 */
export async function lockDataDir(dataDir: string, role: LockRole, onLost: (err: Error) => void): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const current = readLockHolder(dataDir);
  if (current && !holderIsGone(current) && lockAgeMs(dataDir) < PID_TRUST_MS) throw new DataDirBusyError(dataDir, current);
  let released = false;
  let release: () => Promise<void>;
  const take = async (): Promise<void> => {
    release = await lockfile.lock(dataDir, {
      lockfilePath: lockPath(dataDir),
      stale: STALE_MS,
      update: UPDATE_MS,
      realpath: false,
      retries: 0,
      onCompromised: (err) => {
        if (released) return;
        if (readLockHolder(dataDir)?.pid !== process.pid) return onLost(err);
        take().then(
          () => undefined,
          () => onLost(err),
        );
      },
    });
  };
  try {
    await take();
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') throw new DataDirBusyError(dataDir, readLockHolder(dataDir));
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, role, host: os.hostname(), since: new Date().toISOString() };
  writeFileSync(holderPath(dataDir), JSON.stringify(holder), { mode: 0o600 });
  return {
    release: async () => {
      if (released) return;
      released = true;
      if (readLockHolder(dataDir)?.pid === process.pid) rmSync(holderPath(dataDir), { force: true });
      await release().catch(() => undefined);
    },
  };
}

/** Retries lockDataDir every intervalMs while `keepWaiting(holder)` says so; rethrows the busy error when it stops. */
export async function waitForDataDirLock(
  dataDir: string,
  role: LockRole,
  onLost: (err: Error) => void,
  keepWaiting: (busy: DataDirBusyError) => boolean | Promise<boolean>,
  intervalMs = 250,
): Promise<DataDirLock> {
  for (;;) {
    try {
      return await lockDataDir(dataDir, role, onLost);
    } catch (err) {
      if (!(err instanceof DataDirBusyError) || !(await keepWaiting(err))) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
