import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirBusyError, holderIsGone, lockDataDir, readLockHolder } from './data-dir-lock';

/** Field 22 of /proc/<pid>/stat, read here independently of the code under test. */
const startOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];

/**
 * The holder of a DATA_DIR lock is judged by its pid and its process start time, never by the
 * lock's age (issue 30): a CLI command in one long PGlite statement cannot refresh its lock.
 */
describe('DATA_DIR lock liveness', () => {
  const dir = () => mkdtempSync(path.join(os.tmpdir(), 'usdt-lock-'));
  /** A live process other than this one (a holder that is busy, as far as the lock can tell). */
  const sleeper = () => spawn('sleep', ['30'], { stdio: 'ignore' });
  /** A lock taken by this process whose holder file then names a process that has died. */
  const heldByTheDead = async (d: string) => {
    const held = await lockDataDir(d, 'cli', () => undefined);
    const mine = readLockHolder(d)!;
    const gone = sleeper();
    const exited = new Promise((r) => gone.on('exit', r));
    gone.kill('SIGKILL');
    await exited;
    writeFileSync(path.join(d, 'pglite.lock.json'), JSON.stringify({ ...mine, pid: gone.pid, start: '1' }));
    return held;
  };
  const age = (d: string, ms: number) => {
    const past = new Date(Date.now() - ms);
    utimesSync(path.join(d, 'pglite.lock'), past, past);
  };

  it('respects a live holder whatever its lock age, and takes over from a pid reused by another process', async () => {
    const d = dir();
    const other = sleeper();
    try {
      const held = await lockDataDir(d, 'cli', () => undefined);
      const mine = readLockHolder(d)!;
      // The holder file now names the other, live process, with its own start time: a busy holder.
      writeFileSync(path.join(d, 'pglite.lock.json'), JSON.stringify({ ...mine, pid: other.pid, start: startOf(other.pid!) }));
      age(d, 60 * 60_000); // an hour without a refresh
      expect(holderIsGone(readLockHolder(d)!)).toBe(false);
      await expect(lockDataDir(d, 'cli', () => undefined)).rejects.toBeInstanceOf(DataDirBusyError);
      // The same pid with another start time is another program that got the pid after a crash.
      writeFileSync(path.join(d, 'pglite.lock.json'), JSON.stringify({ ...mine, pid: other.pid, start: '1' }));
      expect(holderIsGone(readLockHolder(d)!)).toBe(true);
      const taken = await lockDataDir(d, 'server', () => undefined);
      expect(readLockHolder(d)).toMatchObject({ pid: process.pid, role: 'server', start: startOf(process.pid) });
      await taken.release();
      await held.release();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over the lock of a holder that is gone once it has not been refreshed for 2 s, not 10 s', async () => {
    const d = dir();
    // What a holder killed with -9 three seconds ago leaves behind.
    const held = await heldByTheDead(d);
    age(d, 3_000);
    const taken = await lockDataDir(d, 'server', () => undefined);
    expect(readLockHolder(d)).toMatchObject({ pid: process.pid, role: 'server' });
    await taken.release();
    await held.release().catch(() => undefined);
  });

  it('does not take over a lock refreshed less than 2 s ago, even when the holder file names a dead process', async () => {
    const d = dir();
    // A process that has just taken the lock over and not yet written its holder file looks like this.
    const held = await heldByTheDead(d);
    await expect(lockDataDir(d, 'server', () => undefined)).rejects.toBeInstanceOf(DataDirBusyError);
    await held.release();
  });
});
