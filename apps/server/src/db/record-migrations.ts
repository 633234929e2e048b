import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectDb } from './connect';
import { assertMigrationsUnchanged, MANIFEST_FILE, MIGRATION_LIST_FILE, migrationListSource, recordNewMigrations } from './migration-manifest';
import { SCHEMA_FILE, schemaSnapshot } from './schema-snapshot';

/**
 * `npm run db:manifest`, after adding a migration or merging branches that added some: records the
 * checksum of every migration file not in apps/server/src/db/migrations.sha256 yet (it never
 * rewrites a recorded line: a changed recorded file is refused), writes migration-list.ts (the
 * migrations the migrator runs), then migrates a fresh in-memory PGlite and writes the live schema
 * to apps/server/src/db/schema.sql.
 */
try {
  assertMigrationsUnchanged();
  const added = recordNewMigrations();
  console.log(added.length ? `recorded in ${path.relative(process.cwd(), MANIFEST_FILE)}: ${added.join(', ')}` : 'every migration is recorded already');
  writeFileSync(MIGRATION_LIST_FILE, migrationListSource());
  // Imported after the list is written, so that a migration added just now runs too.
  const { migrateToLatest } = await import('./migrate');
  const handle = await connectDb({});
  await migrateToLatest(handle.db);
  writeFileSync(SCHEMA_FILE, await schemaSnapshot(handle.db));
  await handle.close();
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
