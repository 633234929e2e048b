import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createTestApp, testDbKind, type TestApp } from '../test/app';
import { cli, spawnProgram } from '../test/processes';
import { newDataDir } from '../test/template-db';
import { commands, runCommand } from './commands';
import { readLockHolder } from '../lib/data-dir-lock';
import { controlFile, controlRoutes, readControlFile } from './control';

const SECRET = 'a'.repeat(64);

describe('CLI control endpoint', () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    t = await createTestApp();
    app = await buildApp({ ctx: t.ctx, logger: false, extraRoutes: [controlRoutes(SECRET)] });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const call = (headers: Record<string, string>, body: object = { command: 'ledger:verify', args: [] }, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/api/internal/cli', headers, payload: body, remoteAddress });

  it('runs a command for a loopback caller with the secret, with the output the CLI would print', async () => {
    const res = await call({ 'x-control-secret': SECRET });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: await runCommand(t.ctx, 'ledger:verify', []) });
    const roi = (await call({ 'x-control-secret': SECRET }, { command: 'jobs:roi', args: ['--date', '2025-02-30'] })).json();
    expect(roi.data).toEqual({ exitCode: 2, output: 'Invalid --date 2025-02-30 (expected YYYY-MM-DD)' });
  });

  it('refuses a missing, wrong or truncated secret with 403 and runs nothing', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'x-control-secret': 'b'.repeat(64) },
      { 'x-control-secret': SECRET.slice(1) },
      { 'x-control-secret': `${SECRET}a` },
      { 'x-control-secret': '' },
    ]) {
      const res = await call(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, code: 'FORBIDDEN', message: 'Forbidden' });
    }
  });

  it('refuses a caller that is not on loopback, even with the secret', async () => {
    for (const addr of ['10.0.0.7', '192.168.1.2', '::ffff:10.0.0.7']) {
      expect((await call({ 'x-control-secret': SECRET }, undefined, addr)).statusCode).toBe(403);
    }
    expect((await call({ 'x-control-secret': SECRET }, undefined, '::1')).statusCode).toBe(200);
  });

  it('is not there unless the server opted in (it runs on PGlite only)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/internal/cli',
      headers: { 'x-control-secret': SECRET },
      payload: { command: 'ledger:verify', args: [] },
    });
    expect(res.statusCode).toBe(404);
  });

  it('refuses a malformed body with 400', async () => {
    expect((await call({ 'x-control-secret': SECRET }, { command: 5 })).statusCode).toBe(400);
  });

  it('keeps a command registry others can extend', () => {
    expect(Object.keys(commands)).toEqual(expect.arrayContaining(['ledger:verify', 'jobs:roi', 'admin:create', 'sandbox:pay']));
  });

  // The hand-off exists for PGlite (one process per data directory); the spawned server uses it in both projects.
  it.runIf(testDbKind === 'pglite')(
    'hands the command to a running PGlite server, removes control.json on shutdown, then runs alone with the same output',
    async () => {
      const dataDir = newDataDir('usdt-control-');
      const env = {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        PORT: '0',
        HOST: '127.0.0.1',
        JOBS_ENABLED: 'false',
        WEB_DIST: path.join(dataDir, 'no-web'),
        SMTP_URL: '',
      };

      // A stale control file (nothing listens there) does not stop the CLI.
      writeFileSync(controlFile(dataDir), JSON.stringify({ port: 9, secret: 'stale' }));
      const alone1 = await cli(env, ['jobs:roi', '--date', '2025-01-01']);
      expect(alone1).toMatchObject({ code: 0, stdout: 'ROI up to 2025-01-01: 0 credits on 0 stakes, total 0 USDT, 0 stakes completed\n' });
      expect(await cli(env, ['admin:create', '--email', 'ops@example.test', '--password', 'Adm1nPassword'])).toMatchObject({
        code: 0,
        stdout: 'Admin ops@example.test created\n',
      });

      const { child: server, output: log, exited } = spawnProgram('server', [], env);
      try {
        const deadline = Date.now() + 45_000;
        while (readControlFile(dataDir)?.secret === 'stale' || !readControlFile(dataDir)) {
          if (Date.now() > deadline || server.exitCode !== null) throw new Error(`server did not write control.json:\n${log()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const control = readControlFile(dataDir)!;
        expect(control.port).toBeGreaterThan(0);
        expect(control.secret).toMatch(/^[0-9a-f]{64}$/);

        // The server holds the PGlite directory: the CLI goes through it.
        const verify = await cli(env, ['ledger:verify']);
        expect(verify.code).toBe(0);
        expect(verify.stdout).toMatch(/^Ledger OK\nentries: 0, accounts: 0, sum of all balances: 0\n/);
        const roi = await cli(env, ['jobs:roi', '--date', '2025-01-02']);
        expect(roi).toMatchObject({ code: 0, stdout: 'ROI up to 2025-01-02: 0 credits on 0 stakes, total 0 USDT, 0 stakes completed\n' });
        const bad = await cli(env, ['jobs:roi', '--date']);
        expect(bad).toMatchObject({ code: 2, stdout: '', stderr: 'Missing value for --date (expected YYYY-MM-DD)\n' });
        // Proof that the server ran it: the server holds the DATA_DIR lock the whole time, so the
        // CLI could not have opened the files itself.
        expect(readLockHolder(dataDir)).toMatchObject({ pid: server.pid, role: 'server' });
        expect(await cli(env, ['admin:create', '--email', 'ops@example.test', '--password', 'Adm1nPassword2'])).toMatchObject({
          code: 0,
          stdout: 'ops@example.test is now an admin (password updated)\n',
        });
        // Without the secret the endpoint refuses.
        const forged = await fetch(`http://127.0.0.1:${control.port}/api/internal/cli`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-control-secret': 'f'.repeat(64) },
          body: JSON.stringify({ command: 'ledger:verify', args: [] }),
        });
        expect(forged.status).toBe(403);

        server.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(existsSync(controlFile(dataDir))).toBe(false);

        // No server: the CLI opens the data directory itself and prints the same.
        const verify2 = await cli(env, ['ledger:verify']);
        expect(verify2).toEqual(verify);
        const bad2 = await cli(env, ['jobs:roi', '--date']);
        expect(bad2).toEqual(bad);
      } finally {
        if (server.exitCode === null) server.kill('SIGKILL');
      }
    },
    300_000,
  );
});
