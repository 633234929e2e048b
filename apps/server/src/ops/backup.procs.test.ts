import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { usd } from '@app/core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDb } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import type { DB } from '../db/types';
import * as ledger from '../modules/ledger/service';
import { createStake } from '../modules/staking/service';
import { testDbKind } from '../test/app';
import { nodeArgs } from '../test/entry-points';
import { createUser, fundDeposit } from '../test/factories';
import { startServer } from '../test/processes';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
const secret = randomBytes(32).toString('hex');

/** Users with deposits, transfers between them and stakes: a database with money in it. */
async function fill(db: DB): Promise<void> {
  const users = [];
  for (let i = 0; i < 5; i++) {
    const u = await createUser(db, secret);
    await fundDeposit(db, u.id, 500 + i * 10);
    users.push(u);
  }
  for (const u of users.slice(0, 3)) await createStake(db, u.id, usd(100), new Date());
}

async function snapshot(db: DB) {
  const v = await ledger.verify(db);
  const balances = await db.selectFrom('ledger_accounts').select(['user_id', 'kind', 'balance']).orderBy('id').execute();
  return { entries: v.entries, accounts: v.accounts, balances: balances.map((b) => `${b.user_id}:${b.kind}:${b.balance}`) };
}

/** The real `npm run cli -- ledger:verify` against the restored copy. */
const verifyCli = (env: Record<string, string>) => run(process.execPath, [...nodeArgs('cli'), 'ledger:verify'], { cwd: root, env: { ...process.env, ...env } });

const script = (name: string, args: string[], env: Record<string, string>) =>
  run('bash', [path.join(root, 'scripts', name), ...args], { cwd: root, env: { ...process.env, ...env } });

describe('backup and restore scripts', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'usdt-backup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.runIf(testDbKind === 'pglite')(
    'PGlite: copies DATA_DIR while no one holds it, refuses while a server does, and the restored copy verifies',
    { timeout: 120_000 },
    async () => {
      const source = path.join(dir, 'source');
      const handle = await connectDb({ pgliteDir: path.join(source, 'pglite') });
      await migrateToLatest(handle.db);
      await fill(handle.db);
      const before = await snapshot(handle.db);
      await handle.close();

      const file = path.join(dir, 'pglite-backup.tar.gz');
      const env = { DATA_DIR: source, DATABASE_URL: '' };
      const server = await startServer({ DATA_DIR: source, SESSION_SECRET: secret, WEB_DIST: path.join(dir, 'no-web') });
      try {
        await expect(script('backup.sh', [file], env)).rejects.toMatchObject({ stderr: expect.stringContaining('is in use by a running server') });
      } finally {
        expect(await server.stop()).toBe(0);
      }
      const backed = await script('backup.sh', [file], env);
      expect(backed.stdout).toContain('Backed up PGlite data directory');

      const target = path.join(dir, 'restored');
      await script('restore.sh', [file], { DATA_DIR: target, DATABASE_URL: '' });
      // A second restore over a database is refused rather than mixing two.
      await expect(script('restore.sh', [file], { DATA_DIR: target, DATABASE_URL: '' })).rejects.toMatchObject({
        stderr: expect.stringContaining('already holds a PGlite database'),
      });
      const verified = await verifyCli({ DATA_DIR: target, DATABASE_URL: '' });
      expect(verified.stdout).toContain('Ledger OK');
      const restored = await connectDb({ pgliteDir: path.join(target, 'pglite') });
      try {
        expect(await snapshot(restored.db)).toEqual(before);
      } finally {
        await restored.close();
      }
    },
  );

  it.runIf(testDbKind === 'postgres')(
    'PostgreSQL: pg_dump of a database with money, pg_restore into a fresh one, ledger:verify passes',
    { timeout: 120_000 },
    async () => {
      const base = process.env.TEST_DATABASE_URL!;
      const name = (p: string) => `${p}_${randomBytes(5).toString('hex')}`;
      const [src, dst] = [name('backup_src'), name('backup_dst')];
      const urlOf = (db: string) => base.replace(/\/[^/?]*(\?|$)/, `/${db}$1`);
      const admin = async (q: string) => {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(q).finally(() => c.end());
      };
      await admin(`create database ${src}`);
      await admin(`create database ${dst}`);
      try {
        const handle = await connectDb({ databaseUrl: urlOf(src) });
        await migrateToLatest(handle.db);
        await fill(handle.db);
        const before = await snapshot(handle.db);
        await handle.close();

        const file = path.join(dir, 'pg-backup.dump');
        expect((await script('backup.sh', [file], { DATABASE_URL: urlOf(src) })).stdout).toContain('Backed up PostgreSQL');
        await script('restore.sh', [file], { DATABASE_URL: urlOf(dst) });
        const verified = await verifyCli({ DATABASE_URL: urlOf(dst) });
        expect(verified.stdout).toContain('Ledger OK');
        const restored = await connectDb({ databaseUrl: urlOf(dst) });
        try {
          expect(await snapshot(restored.db)).toEqual(before);
          // The copy takes new money: identity sequences came along, so new ids do not collide.
          const u = await createUser(restored.db, secret);
          await fundDeposit(restored.db, u.id, 10);
          expect((await ledger.verify(restored.db)).ok).toBe(true);
        } finally {
          await restored.close();
        }
      } finally {
        await admin(`drop database if exists ${src} with (force)`);
        await admin(`drop database if exists ${dst} with (force)`);
      }
    },
  );
});
