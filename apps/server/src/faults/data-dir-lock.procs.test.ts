import { existsSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isDataDirLocked, lockDataDir, readLockHolder } from '../lib/data-dir-lock';
import { testDbKind } from '../test/app';
import { cli } from '../test/processes';
import { freePort, newTarget, processEnv, startServer, withDb, type ServerProc, type Target } from '../test/faults/procs';

/**
 * One process per PGlite data directory, tried with real processes in each window where two
 * of them used to open the files together and destroy them. After each window the directory
 * opens again, the ledger verifies, and every write that was acknowledged is there.
 * (PGlite only: with PostgreSQL there is no data directory to share.)
 */
describe.runIf(testDbKind === 'pglite')('DATA_DIR lock (real processes)', () => {
  const servers: ServerProc[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  });
  const start = async (t: Target) => {
    const s = startServer(t, await freePort());
    servers.push(s);
    return s;
  };
  const admin = (env: NodeJS.ProcessEnv, email: string) => cli(env, ['admin:create', '--email', email, '--password', 'Adm1nPassword']);
  /** Opens the directory itself (under the lock) and checks it: it opens, the ledger verifies, these admins exist. */
  const assertIntact = (t: Target, emails: string[]) =>
    withDb(t, async (h) => {
      const report = await h.db.selectFrom('users').select('email').where('is_admin', '=', true).execute();
      expect(report.map((r) => r.email).sort()).toEqual([...emails].sort());
      const { verify } = await import('../modules/ledger/service');
      expect((await verify(h.db)).ok).toBe(true);
    });

  /** Stops a server as an operator does (SIGTERM, exit 0), then checks what it leaves. */
  const stopIntact = async (s: ServerProc, t: Target, emails: string[]) => {
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await assertIntact(t, emails);
  };
  /** Once the server is up, a CLI command creating `email` lands on it; then it stops intact with that admin. */
  const servesThenStopsIntact = async (s: ServerProc, t: Target, email: string) => {
    await s.ready();
    expect(await admin(processEnv(t, 0), email)).toMatchObject({ code: 0 });
    await stopIntact(s, t, [email]);
  };

  it('a CLI command run while the server starts waits for it and hands the command over', async () => {
    const t = await newTarget('pglite');
    const server = await start(t);
    const env = processEnv(t, 0);
    // Fired at once: the server is still loading, opening or migrating the database.
    const [a, b] = await Promise.all([admin(env, 'during-start-1@example.test'), admin(env, 'during-start-2@example.test')]);
    expect(a).toMatchObject({ code: 0, stdout: 'Admin during-start-1@example.test created\n' });
    expect(b).toMatchObject({ code: 0, stdout: 'Admin during-start-2@example.test created\n' });
    await server.ready();
    expect((await cli(env, ['ledger:verify'])).stdout).toMatch(/^Ledger OK/);
    await stopIntact(server, t, ['during-start-1@example.test', 'during-start-2@example.test']);
  }, 120_000);

  it('a CLI command run while the server stops waits for the lock and runs alone', async () => {
    const t = await newTarget('pglite');
    const server = await start(t);
    await server.ready();
    const env = processEnv(t, 0);
    // CLI commands started before, at and after the SIGTERM: each lands on the server before it
    // closes, or waits for its lock and runs alone, never both, never neither.
    const emails = [0, 1, 2, 3].map((i) => `during-stop-${i}@example.test`);
    const runs = emails.map((e, i) => new Promise((r) => setTimeout(r, i * 400)).then(() => admin(env, e)));
    await new Promise((r) => setTimeout(r, 1_500));
    server.proc.kill('SIGTERM');
    for (const [i, r] of (await Promise.all(runs)).entries()) expect(r).toMatchObject({ code: 0, stdout: `Admin ${emails[i]} created\n` });
    expect(await server.exited).toBe(0);
    await assertIntact(t, emails);
  }, 120_000);

  it('a second server on the same directory refuses with one line and never opens it', async () => {
    const t = await newTarget('pglite');
    const [first, second] = await Promise.all([start(t), start(t)]);
    const loser = await Promise.race([first.exited.then(() => first), second.exited.then(() => second)]);
    const winner = loser === first ? second : first;
    expect(loser.proc.exitCode).toBe(1);
    const lines = loser.log().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Startup failed: DATA_DIR .* is in use by another server \(pid \d+\); only one process may open it at a time$/);
    // The winner still serves and its database is sound.
    await servesThenStopsIntact(winner, t, 'after-two-servers@example.test');
  }, 120_000);

  it('two CLI commands at once on a directory with no server run one after the other', async () => {
    const t = await newTarget('pglite');
    const env = processEnv(t, 0);
    const results = await Promise.all(['two-clis-1@example.test', 'two-clis-2@example.test', 'two-clis-3@example.test'].map((e) => admin(env, e)));
    for (const r of results) expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Admin two-clis-\d@example\.test created\n$/) });
    expect(existsSync(path.join(t.dataDir, 'pglite.lock'))).toBe(false);
    await assertIntact(t, ['two-clis-1@example.test', 'two-clis-2@example.test', 'two-clis-3@example.test']);
  }, 120_000);

  it('a server killed with -9 leaves a lock that the next server takes over once it is stale', async () => {
    const t = await newTarget('pglite');
    const first = await start(t);
    await first.ready();
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(existsSync(path.join(t.dataDir, 'pglite.lock'))).toBe(true);
    await servesThenStopsIntact(await start(t), t, 'after-kill@example.test');
  }, 120_000);

  it('refuses with one line and never opens the files while a holder that does not answer keeps the lock', async () => {
    const t = await newTarget('pglite', { empty: true });
    // This test process holds the directory as a server that never writes control.json.
    const held = await lockDataDir(t.dataDir, 'server', () => undefined);
    try {
      const r = await cli({ ...processEnv(t, 0), CLI_WAIT_SECONDS: '2' }, ['ledger:verify']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `DATA_DIR ${t.dataDir} is in use by another server (pid ${process.pid}); only one process may open it at a time, and it did not take the command within 2 s\n`,
      );
      const server = await start(t);
      expect(await server.exited).toBe(1);
      expect(server.log()).toBe(
        `Startup failed: DATA_DIR ${t.dataDir} is in use by another server (pid ${process.pid}); only one process may open it at a time\n`,
      );
      // Neither process created the database beside the holder.
      expect(existsSync(path.join(t.dataDir, 'pglite'))).toBe(false);
    } finally {
      await held.release();
    }
  }, 120_000);

  it('a server started while a CLI command holds the directory waits for it, then starts', async () => {
    const t = await newTarget('pglite', { empty: true });
    const held = await lockDataDir(t.dataDir, 'cli', () => undefined);
    const server = startServer(t, await freePort(), { LOG_LEVEL: 'info' });
    servers.push(server);
    // It has loaded, found the lock taken and says it waits; a moment later it still waits.
    for (const deadline = Date.now() + 60_000; !server.log().includes('waiting for the CLI command');) {
      if (Date.now() > deadline || server.proc.exitCode !== null) throw new Error(`the server did not wait:\n${server.log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1_500));
    expect(server.proc.exitCode).toBeNull();
    expect(existsSync(path.join(t.dataDir, 'pglite'))).toBe(false);
    await held.release();
    await server.ready();
    await stopIntact(server, t, []);
  }, 120_000);

  it('a live holder whose lock looks stale (a long PGlite query stalled its refresh) keeps it', async () => {
    const t = await newTarget('pglite', { empty: true });
    let lost: Error | undefined;
    const held = await lockDataDir(t.dataDir, 'server', (err) => (lost = err));
    try {
      // What a 60 s stall of the holder's event loop leaves behind: a lock not refreshed for a minute.
      const past = new Date(Date.now() - 60_000);
      utimesSync(path.join(t.dataDir, 'pglite.lock'), past, past);
      const r = await cli({ ...processEnv(t, 0), CLI_WAIT_SECONDS: '1' }, ['ledger:verify']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/is in use by another server \(pid \d+\)/);
      expect(existsSync(path.join(t.dataDir, 'pglite'))).toBe(false);
      // The holder notices at its next refresh that the lock was marked stale, finds nobody else
      // took it, and takes it again instead of giving up.
      await new Promise((r) => setTimeout(r, 5_000));
      expect(lost).toBeUndefined();
      expect(await isDataDirLocked(t.dataDir)).toBe(true);
      expect(readLockHolder(t.dataDir)?.pid).toBe(process.pid);
    } finally {
      await held.release();
    }
    expect(await isDataDirLocked(t.dataDir)).toBe(false);
  }, 60_000);
});
