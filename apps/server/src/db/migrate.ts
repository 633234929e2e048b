import { sql } from 'kysely';
import type { MigrationProvider } from 'kysely/migration';
import { Migrator } from 'kysely/migration';
import { assertAppliedRecorded, assertMigrationsUnchanged, MANIFEST_FILE, MIGRATIONS_DIR } from './migration-manifest';
import type { DB } from './types';

/**
 * Every migration of ./migrations, in name order (migration-list.ts). Loaded only when the
 * migrator asks, after the manifest check: a recorded file that is gone then stops the start with
 * the manifest's one line instead of the loader's module-not-found stack.
 */
const provider: MigrationProvider = {
  getMigrations: async () => ({ ...(await import('./migration-list')).MIGRATIONS }),
};

/** Where the checks read the migration files and their manifest (the tests point them at a copy). */
export interface MigrationFiles {
  dir?: string;
  manifest?: string;
}

/**
 * Runs every migration not yet applied (one history for PGlite and PostgreSQL), after checking
 * that no recorded migration changed or is gone, and that every migration the database has applied
 * is still recorded (a line deleted from the manifest must not let a changed file start). Kysely's
 * migrator takes a lock, so several servers starting at once migrate once.
 */
export async function migrateToLatest(db: DB, schema?: string, files: MigrationFiles = {}): Promise<void> {
  const dir = files.dir ?? MIGRATIONS_DIR;
  const manifest = files.manifest ?? MANIFEST_FILE;
  // A recorded migration that changed or is gone refuses the start (db/migrations.sha256).
  assertMigrationsUnchanged(dir, manifest);
  assertAppliedRecorded(await appliedMigrations(db, schema), dir, manifest);
  const { error, results } = await migratorFor(db, schema).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The names of the migrations this database has applied (Kysely's table), none before the first. */
export async function appliedMigrations(db: DB, schema?: string): Promise<string[]> {
  const table = schema ? `${schema}.kysely_migration` : 'kysely_migration';
  const exists = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(db);
  if (!exists.rows[0]?.t) return [];
  const r = await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(db);
  return r.rows.map((row) => row.name);
}

/** Kysely's migrator over ./migrations (the tests also walk it down and up again). */
export function migratorFor(db: DB, schema?: string): Migrator {
  // With a schema named, Kysely looks for its bookkeeping tables in that schema only; otherwise
  // its table check sees other schemas' tables (several test schemas in one database) and skips
  // creating its own.
  return new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
}

/** The newest migration this code runs (the last of migration-list.ts, loaded as the migrator loads it). */
export async function latestMigration(): Promise<string> {
  const names = Object.keys((await import('./migration-list')).MIGRATIONS);
  return names[names.length - 1]!;
}

/**
 * Whether the database has the schema this code needs: 'current' with its newest migration applied,
 * 'behind' without it (an older dump restored), 'missing' with no migration at all (the database
 * was dropped and created again empty). A failure to ask at all (a connection) is thrown.
 */
export async function schemaState(db: DB): Promise<'current' | 'behind' | 'missing'> {
  const latest = await latestMigration();
  const exists = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db);
  if (!exists.rows[0]?.t) return 'missing';
  const r = await sql<{ ok: boolean }>`select exists (select 1 from kysely_migration where name = ${latest}) as ok`.execute(db);
  return r.rows[0]?.ok === true ? 'current' : 'behind';
}
