import type { MigrationProvider } from 'kysely/migration';
import { Migrator } from 'kysely/migration';
import { assertMigrationsUnchanged } from './migration-manifest';
import { MIGRATIONS } from './migration-list';
import type { DB } from './types';

/** Every migration of ./migrations, in name order (migration-list.ts). */
const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};

/**
 * Runs every migration not yet applied (one history for PGlite and PostgreSQL), after checking
 * that no recorded migration changed. Kysely's migrator takes a lock, so several servers starting
 * at once migrate once.
 */
export async function migrateToLatest(db: DB, schema?: string): Promise<void> {
  // A recorded migration that changed refuses the start (db/migrations.sha256).
  assertMigrationsUnchanged();
  const { error, results } = await migratorFor(db, schema).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Kysely's migrator over ./migrations (the tests also walk it down and up again). */
export function migratorFor(db: DB, schema?: string): Migrator {
  // With a schema named, Kysely looks for its bookkeeping tables in that schema only; otherwise
  // its table check sees other schemas' tables (several test schemas in one database) and skips
  // creating its own.
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}
