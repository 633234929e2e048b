import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { usd } from '@app/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../test/app';
import { nodeArgs } from '../test/entry-points';
import { newDataDir } from '../test/template-db';
import { createUser, fundDeposit } from '../test/factories';
import { tamperBalance } from '../test/ledger-repair';
import { createStake } from '../modules/staking/service';
import { runCommand } from './commands';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');

describe('CLI commands', () => {
  const t = useTestApp();

  it('jobs:roi --date credits every day up to the date, and ledger:verify reports OK', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 100);
    const { stakeId } = await createStake(t.db, u.id, usd(100));
    await sql`update stakes set start_date = '2025-06-01' where id = ${stakeId}`.execute(t.db);
    const roi = await runCommand(t.ctx, 'jobs:roi', ['--date', '2025-06-03']);
    expect(roi).toEqual({ exitCode: 0, output: 'ROI up to 2025-06-03: 2 credits on 1 stakes, total 1 USDT, 0 stakes completed' });
    const verify = await runCommand(t.ctx, 'ledger:verify', []);
    expect(verify.exitCode).toBe(0);
    expect(verify.output).toMatch(/^Ledger OK/);
  });

  it('ledger:verify exits 1 when a cached balance was tampered with', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 3);
    await tamperBalance(t.db, u.id, 5);
    const verify = await runCommand(t.ctx, 'ledger:verify', []);
    expect(verify.exitCode).toBe(1);
    expect(verify.output).toMatch(/Ledger BROKEN/);
    await tamperBalance(t.db, u.id, -5);
  });

  it('refuses a bad date and an unknown command', async () => {
    expect((await runCommand(t.ctx, 'jobs:roi', ['--date', '2025-13-45'])).exitCode).toBe(2);
    expect((await runCommand(t.ctx, 'nope', [])).exitCode).toBe(2);
  });

  // A PGlite data directory, whichever engine the rest of the file runs on: once is enough.
  it.runIf(testDbKind === 'pglite')(
    'runs as a process against a PGlite data directory with no server',
    async () => {
      const dataDir = newDataDir('usdt-cli-');
      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
      const created = await run(process.execPath, [...nodeArgs('cli'), 'admin:create', '--email', 'ops@example.test', '--password', 'Adm1nPassword'], {
        cwd: root,
        env,
      });
      expect(created.stdout.trim()).toBe('Admin ops@example.test created');
      const verify = await run(process.execPath, [...nodeArgs('cli'), 'ledger:verify'], { cwd: root, env });
      expect(verify.stdout).toMatch(/^Ledger OK/);
    },
    300_000,
  );
});
