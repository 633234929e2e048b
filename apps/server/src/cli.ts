import pino from 'pino';
import { createContext } from './boot';
import { runCommand } from './cli/commands';
import { usageText } from './cli/usage';
import { readControlFile, removeControlFile } from './cli/control';
import { offlineCommands } from './cli/offline';
import { DataDirBusyError, holderIsGone, lockDataDir, type DataDirLock } from './lib/data-dir-lock';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { backup, restore } from './ops/backup';

/** Commands that work on DATA_DIR's files (PGlite) or call pg_dump/pg_restore, without opening the database. */
const FILE_COMMANDS = new Set(['backup', 'restore']);

/** `npm run cli -- <command> [args]`: works whether or not the server is running. */
async function main(): Promise<number> {
  const [name, ...args] = process.argv.slice(2).filter((a) => a !== '--');
  if (!name) {
    console.error(usageText());
    return 2;
  }
  const offline = offlineCommands[name];
  if (offline) {
    const result = await offline.run(args);
    (result.exitCode === 0 ? console.log : console.error)(result.output);
    return result.exitCode;
  }
  loadDotEnv();
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  if (!config.databaseUrl) {
    const got = await lockOrHandOff(config.dataDir, name, args, !FILE_COMMANDS.has(name));
    if ('exitCode' in got) return got.exitCode;
    lock = got.lock;
  }
  if (FILE_COMMANDS.has(name)) {
    try {
      const file = args.find((a) => !a.startsWith('--'));
      if (!file) {
        console.error(`Usage: npm run cli -- ${name} FILE${name === 'restore' ? ' [--clean]' : ''}`);
        return 2;
      }
      const r = name === 'backup' ? await backup(config, file) : await restore(config, file, args.includes('--clean'));
      (r.exitCode === 0 ? console.log : console.error)(r.output);
      return r.exitCode;
    } finally {
      await lock?.release();
    }
  }
  const { ctx, handle } = await createContext(config, pino({ level: 'warn' }), lock);
  try {
    const result = await runCommand(ctx, name, args);
    (result.exitCode === 0 ? console.log : console.error)(result.output);
    return result.exitCode;
  } finally {
    ctx.mailer.close();
    await handle.close();
  }
}

const WAIT_MS = Number(process.env.CLI_WAIT_SECONDS ?? 120) * 1000;

/**
 * PGlite allows one process per data directory. Take its lock and run here; or, while a server
 * holds it, hand the command to that server once its control endpoint is up (it writes
 * control.json after migrating and listening); while another CLI command holds it, or a server
 * is starting or stopping, wait. Never open the files without the lock. A command that cannot be
 * handed over (a backup copies the files, which a running server has open) is refused at once
 * while a server runs.
 */
async function lockOrHandOff(dataDir: string, name: string, args: string[], mayHandOff: boolean): Promise<{ lock: DataDirLock } | { exitCode: number }> {
  const deadline = Date.now() + WAIT_MS;
  let last: DataDirBusyError | undefined;
  for (;;) {
    try {
      const lock = await lockDataDir(dataDir, 'cli', (err) => {
        console.error(`Lost the DATA_DIR lock (${err.message}); stopping`);
        process.exit(1);
      });
      // Holding the lock, any control file is a dead server's.
      removeControlFile(dataDir);
      return { lock };
    } catch (err) {
      if (!(err instanceof DataDirBusyError)) throw err;
      last = err;
    }
    if (!mayHandOff && last.holder?.role === 'server' && !holderIsGone(last.holder)) {
      console.error(
        `DATA_DIR ${dataDir} is in use by a running server (pid ${last.holder.pid}); stop it before a PGlite ${name} (or use PostgreSQL, where pg_dump runs online)`,
      );
      return { exitCode: 1 };
    }
    const control = readControlFile(dataDir);
    if (mayHandOff && control && (!last.holder || last.holder.pid === control.pid)) {
      const answered = await handOff(control, name, args);
      if (answered !== undefined) return { exitCode: answered };
    }
    if (Date.now() > deadline) {
      console.error(`${last.message}, and it did not take the command within ${Math.round(WAIT_MS / 1000)} s`);
      return { exitCode: 1 };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The exit code of the command the server ran, or undefined when nothing answered on that port. */
async function handOff(control: { port: number; secret: string }, name: string, args: string[]): Promise<number | undefined> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${control.port}/api/internal/cli`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-control-secret': control.secret },
      body: JSON.stringify({ command: name, args }),
      signal: AbortSignal.timeout(10 * 60_000),
    });
  } catch (err) {
    // A server that took too long may still be running it: do not run it a second time.
    if ((err as { name?: string }).name === 'TimeoutError') {
      console.error(`The server on port ${control.port} did not finish the command in time; it may still be running it`);
      return 1;
    }
    return undefined; // nothing listens (yet, or any more)
  }
  // A server that is closing answers 503 or drops the request before running it: ask again.
  if (res.status === 503) return undefined;
  const body = (await res.json().catch(() => ({ success: false }))) as { success: boolean; message?: string; data?: { output: string; exitCode: number } };
  if (!body.success || !body.data) {
    console.error(body.message ?? 'The server refused the command');
    return 1;
  }
  // Same streams as running the command here: failures go to stderr.
  (body.data.exitCode === 0 ? console.log : console.error)(body.data.output);
  return body.data.exitCode;
}

main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
