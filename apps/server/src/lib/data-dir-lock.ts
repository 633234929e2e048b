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
 *
 * Liveness is judged by the holder's pid, not by the lock's age: PGlite runs a statement on the
 * holder's only thread, so a CLI command in a 20 s statement cannot refresh the mtime, and its
 * lock looks abandoned while the files are being written (issue 30). A holder that still runs is
 * respected whatever the age; the holder file also records the process's start time (Linux
 * /proc), so a pid reused by another program after a crash is not mistaken for the holder.
 */
export type LockRole = 'server' | 'cli';
export interface LockHolder {
  pid: number;
  role: LockRole;
  host: string;
  since: string;
  /** the holder process's start time in clock ticks since boot (/proc/<pid>/stat field 22); absent off Linux */
  start?: string;
}
export interface DataDirLock {
  release(): Promise<void>;
}

const STALE_MS = 10_000;
const UPDATE_MS = 2_000;
/**
 * A lock whose holder file names a process that is gone (killed with -9) stops being refreshed at
 * once; it is taken over once it has not been refreshed for this long (proper-lockfile's least)
 * instead of STALE_MS: a restart after a crash does not wait 10 s.
 */
const GONE_STALE_MS = 2_000;

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

/** A process's start time (clock ticks since boot) from /proc, or undefined where there is no /proc. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * True when the holder file names a process of this host that no longer runs (killed with -9),
 * a pid now used by another process (its start time differs), or ourselves (a container restarts
 * its server under the same pid): its lock will go stale.
 */
export function holderIsGone(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    return (err as { code?: string }).code === 'ESRCH';
  }
  const start = holder.start === undefined ? undefined : processStart(holder.pid);
  return start !== undefined && start !== holder.start;
}

export async function isDataDirLocked(dataDir: string): Promise<boolean> {
  mkdirSync(dataDir, { recursive: true });
  return lockfile.check(dataDir, { lockfilePath: lockPath(dataDir), stale: STALE_MS, realpath: false });
}

/**
 * Without a recorded start time (off Linux) a pid alone cannot tell the holder from another program
 * that got its pid after a crash: there a live pid is trusted while the lock is younger than this.
 */
const PID_ONLY_TRUST_MS = 5 * 60_000;

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
 * still runs on this host is respected whatever the mtime says (by pid and start time; by pid
 * alone only up to PID_ONLY_TRUST_MS), and a holder that finds its own lock marked stale after
 * such a stall takes it again if nobody else did.
 */
export async function lockDataDir(dataDir: string, role: LockRole, onLost: (err: Error) => void): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const current = readLockHolder(dataDir);
  if (current && !holderIsGone(current) && (current.start !== undefined || lockAgeMs(dataDir) < PID_ONLY_TRUST_MS))
    throw new DataDirBusyError(dataDir, current);
  if (current && current.pid !== process.pid && holderIsGone(current)) {
    // Clears the dead holder's lock when it has not been refreshed for GONE_STALE_MS, then lets go:
    // the lock below is taken with the usual settings. A lock that is fresher belongs to whoever
    // took it over meanwhile (its holder file follows at once): it stays, and we are refused.
    await lockfile
      .lock(dataDir, { lockfilePath: lockPath(dataDir), stale: GONE_STALE_MS, realpath: false, retries: 0 })
      .then((r) => r())
      .catch(() => undefined);
  }
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
  const start = processStart(process.pid);
  const holder: LockHolder = { pid: process.pid, role, host: os.hostname(), since: new Date().toISOString(), ...(start ? { start } : {}) };
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
