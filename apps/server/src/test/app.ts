import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { connectDb, type DbHandle } from '../db/connect';
import { buildContext, type AppContext } from '../context';
import { startMailbox } from './mailbox';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { refuseInEngineFreeFile } from './file-kinds';
import { TEST_PGLITE_SHARED_BUFFERS } from './process-tuning';
import { cloneDatabase, databaseUrlFor, dropDatabase, pgliteTemplate } from './template-db';

export type TestDbKind = 'pglite' | 'postgres';
export const testDbKind: TestDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh database for one test file: an in-memory PGlite, or a new database on
 * TEST_DATABASE_URL's server, each a copy of the run's migrated template (global-setup.ts).
 */
export async function createTestDb(): Promise<DbHandle & { schema?: string; url?: string }> {
  refuseInEngineFreeFile(expect.getState().testPath, 'createTestDb');
  if (testDbKind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = await cloneDatabase(base, inject('pgTemplate'));
    const url = databaseUrlFor(base, name);
    const handle = await connectDb({ databaseUrl: url, poolSize: 20 });
    return {
      ...handle,
      schema: 'public',
      url,
      close: async () => {
        await handle.close();
        await dropDatabase(base, name);
      },
    };
  }
  return connectDb({ pgliteTemplate: pgliteTemplate(inject('pgliteDataDir')), pgliteSharedBuffers: TEST_PGLITE_SHARED_BUFFERS });
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: AppContext['db'];
  mailbox: Awaited<ReturnType<typeof startMailbox>>;
  close: () => Promise<void>;
}

/** buildApp() on a fresh database with a real SMTP capture; env overrides the config. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  // Before the mailbox starts, so a refused file leaves no server behind.
  refuseInEngineFreeFile(expect.getState().testPath, 'createTestApp');
  const mailbox = await startMailbox();
  const handle = await createTestDb();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'usdt-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: mailbox.url,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    JOBS_ENABLED: 'false',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...env,
  });
  const log = pino({ level: 'silent' });
  const ctx = buildContext(config, handle, log);
  const app = await buildApp({ ctx, logger: false, checkResponses: true });
  await app.ready();
  return {
    app,
    ctx,
    db: handle.db,
    mailbox,
    close: async () => {
      await app.close();
      ctx.mailer.close();
      await handle.close();
      await mailbox.close();
    },
  };
}

/**
 * The describe block's app: created before its tests and closed after them, like `createTestApp`
 * in a beforeAll/afterAll pair. Read its fields (`t.app`, `t.db`, `t.ctx`, `t.mailbox`) inside tests.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(env));
  });
  afterAll(async () => t.close?.());
  return t;
}
