import path from 'node:path';
import { assertMigrationsUnchanged, MANIFEST_FILE, recordNewMigrations } from './migration-manifest';

/**
 * `npm run db:manifest`: records the checksum of every migration file not in
 * apps/server/src/db/migrations.sha256 yet (after adding a migration, or after merging branches
 * that added some). It never rewrites a recorded line: a changed recorded file is refused.
 */
try {
  assertMigrationsUnchanged();
  const added = recordNewMigrations();
  console.log(added.length ? `recorded in ${path.relative(process.cwd(), MANIFEST_FILE)}: ${added.join(', ')}` : 'every migration is recorded already');
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
