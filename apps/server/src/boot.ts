import path from 'node:path';
import pino from 'pino';
import type { Config } from './config';
import { connectDb, type DbHandle } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { buildContext, type AppContext } from './context';
import type { DataDirLock } from './lib/data-dir-lock';

/**
 * Opens the database (PGlite under DATA_DIR unless DATABASE_URL), migrates, and builds the context.
 * PGlite is opened only under the caller's DATA_DIR lock (lib/data-dir-lock.ts), which the returned
 * handle releases after the database is closed.
 */
export async function createContext(
  config: Config,
  log = pino({ level: config.logLevel }),
  lock?: DataDirLock,
): Promise<{ ctx: AppContext; handle: DbHandle }> {
  if (!config.databaseUrl && !lock) throw new Error('PGlite needs the DATA_DIR lock before it is opened');
  let opened: DbHandle;
  try {
    opened = await connectDb({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'pglite'),
      pgliteSharedBuffers: config.pgliteSharedBuffers,
      onPoolError: (err) => log.warn({ err }, 'database connection lost; the pool reconnects on the next query'),
    });
  } catch (err) {
    await lock?.release();
    const what = config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR';
    throw new Error(`Cannot open the database (${what}): ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const handle: DbHandle = {
    ...opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        await lock?.release();
      }
    },
  };
  await migrateToLatest(handle.db);
  return { ctx: buildContext(config, handle, log), handle };
}
