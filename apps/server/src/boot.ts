import path from 'node:path';
import pino from 'pino';
import { resolveSessionSecret, type Config } from './config';
import { connectDb, type DbHandle } from './db/connect';
import { migrateToLatest } from './db/migrate';
import type { AppContext } from './context';
import { createMailer } from './modules/mail/mailer';

/** Opens the database (PGlite under DATA_DIR unless DATABASE_URL), migrates, and builds the context. */
export async function createContext(config: Config, log = pino({ level: config.logLevel })): Promise<{ ctx: AppContext; handle: DbHandle }> {
  let handle: DbHandle;
  try {
    handle = await connectDb({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
  } catch (err) {
    const what = config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
    throw new Error(`Cannot open the database (${what}): ${err instanceof Error ? err.message : String(err)}`);
  }
  await migrateToLatest(handle.db);
  const ctx: AppContext = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    secret: resolveSessionSecret(config),
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
  };
  return { ctx, handle };
}
