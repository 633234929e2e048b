import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm run cli -- backup FILE` and `restore FILE` (scripts/backup.sh and restore.sh call these).
 *
 * - PostgreSQL (DATABASE_URL): pg_dump in its custom format, online, a consistent snapshot while
 *   the servers run; pg_restore in one transaction.
 * - PGlite: a .tar.gz of DATA_DIR (database, session secret, dev outbox) taken while this process
 *   holds the DATA_DIR lock (cli.ts takes it as every CLI command does, so no server or CLI opens
 *   the files during the copy, and none is holding them open: a live holder is respected whatever
 *   its lock's age, lib/data-dir-lock.ts).
 *
 * Either way the archive is written under a temporary name beside FILE and renamed to FILE only
 * once complete and flushed: a failure (a full disk, a dump error, a kill) never leaves a torn
 * archive under the requested name, and an older FILE stays as it was.
 */
const run = promisify(execFile);

export interface OpResult {
  output: string;
  exitCode: number;
}

/** The files of DATA_DIR that belong to the process holding it, never to a backup. */
const HOLDER_FILES = ['pglite.lock', 'pglite.lock.json', 'control.json'];

function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.partial-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** Flushes a finished file to disk, then gives it its name (a crash after this shows the whole file or none). */
function commit(temp: string, file: string): void {
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

function failure(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  return (e.stderr?.trim() || e.message || String(err)).split('\n').slice(-3).join('\n');
}

export async function backup(opts: { databaseUrl?: string | undefined; dataDir: string }, fileArg: string): Promise<OpResult> {
  const file = path.resolve(fileArg);
  if (!existsSync(path.dirname(file))) return { output: `No such directory: ${path.dirname(file)}`, exitCode: 2 };
  const temp = tempBeside(file);
  try {
    if (opts.databaseUrl) {
      await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${temp}`, opts.databaseUrl], { maxBuffer: 16 << 20 });
      commit(temp, file);
      return { output: `Backed up PostgreSQL to ${file} (${statSync(file).size} bytes)`, exitCode: 0 };
    }
    const dataDir = path.resolve(opts.dataDir);
    if (!existsSync(path.join(dataDir, 'pglite')))
      return { output: `No PGlite database in ${dataDir} (set DATA_DIR, or DATABASE_URL for PostgreSQL)`, exitCode: 1 };
    if (file.startsWith(dataDir + path.sep)) return { output: `The backup file must be outside DATA_DIR (${dataDir})`, exitCode: 2 };
    await run('tar', ['-czf', temp, '-C', dataDir, ...HOLDER_FILES.map((f) => `--exclude=./${f}`), '.'], { maxBuffer: 16 << 20 });
    // Read back before it gets its name: a truncated or corrupt archive is refused here.
    await run('tar', ['-tzf', temp], { maxBuffer: 64 << 20 });
    commit(temp, file);
    return { output: `Backed up PGlite data directory ${dataDir} to ${file} (${statSync(file).size} bytes)`, exitCode: 0 };
  } catch (err) {
    return { output: `Backup failed, nothing written to ${file}: ${failure(err)}`, exitCode: 1 };
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Restores a backup made by `backup`. PostgreSQL: pg_restore into the database DATABASE_URL names
 * (a fresh one; with --clean it replaces the objects of an existing one). PGlite: unpacks into a
 * DATA_DIR that holds no database yet, first into a temporary folder inside it, then moves the
 * entries into place, so a failed unpack leaves DATA_DIR as it was.
 */
export async function restore(opts: { databaseUrl?: string | undefined; dataDir: string }, fileArg: string, clean: boolean): Promise<OpResult> {
  const file = path.resolve(fileArg);
  if (!existsSync(file)) return { output: `No such backup file: ${file}`, exitCode: 1 };
  if (opts.databaseUrl) {
    try {
      await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--single-transaction',
          '--exit-on-error',
          ...(clean ? ['--clean', '--if-exists'] : []),
          `--dbname=${opts.databaseUrl}`,
          file,
        ],
        { maxBuffer: 16 << 20 },
      );
      return { output: `Restored ${file} into PostgreSQL`, exitCode: 0 };
    } catch (err) {
      return { output: `Restore failed (nothing restored: one transaction): ${failure(err)}`, exitCode: 1 };
    }
  }
  const dataDir = path.resolve(opts.dataDir);
  if (existsSync(path.join(dataDir, 'pglite')))
    return { output: `${dataDir} already holds a PGlite database; move it away (or point DATA_DIR at an empty directory) before restoring`, exitCode: 1 };
  const temp = path.join(dataDir, `.restore-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(temp, { recursive: true });
  try {
    await run('tar', ['-xzf', file, '-C', temp], { maxBuffer: 16 << 20 });
    if (!existsSync(path.join(temp, 'pglite'))) return { output: `${file} holds no PGlite database`, exitCode: 1 };
    for (const entry of readdirSync(temp)) {
      if (HOLDER_FILES.includes(entry)) continue;
      const target = path.join(dataDir, entry);
      // A restore adds to an empty DATA_DIR: it never overwrites what is there (a secret, an outbox).
      if (existsSync(target)) return { output: `${target} exists already; restore into an empty DATA_DIR`, exitCode: 1 };
    }
    // pglite last: until it is in place, the directory holds no database and a retry starts over.
    for (const entry of readdirSync(temp).sort((a, b) => Number(a === 'pglite') - Number(b === 'pglite')))
      if (!HOLDER_FILES.includes(entry)) renameSync(path.join(temp, entry), path.join(dataDir, entry));
    return { output: `Restored ${file} into ${dataDir}`, exitCode: 0 };
  } catch (err) {
    return { output: `Restore failed, ${dataDir} left as it was: ${failure(err)}`, exitCode: 1 };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
