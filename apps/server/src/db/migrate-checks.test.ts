import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/app';
import { appliedMigrations, migrateToLatest } from './migrate';
import { checkMigrations, migrationFiles, MIGRATIONS_DIR, recordNewMigrations } from './migration-manifest';

/**
 * What the start checks before it migrates (issue 47, item 3), on a migrated database of either
 * engine: a recorded migration whose file is gone, and an applied migration the manifest no longer
 * records (a deleted line would otherwise let its edited file pass as a new one), each refuse the
 * start in one line. startup.procs.engine-free.test.ts checks the line a real start prints.
 */
describe('the start checks the migrations against the manifest and the database', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  const temps: string[] = [];
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
  });
  /** A copy of the migrations folder and a manifest recording it, in a temporary directory. */
  const copy = () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'migrate-checks-'));
    temps.push(root);
    const dir = path.join(root, 'migrations');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const manifest = path.join(root, 'migrations.sha256');
    recordNewMigrations(dir, manifest);
    return { dir, manifest };
  };

  it('reads what the database has applied: every migration of the folder', async () => {
    expect(await appliedMigrations(h.db, h.schema)).toEqual(migrationFiles().map((f) => f.replace(/\.ts$/, '')));
    const { dir, manifest } = copy();
    await expect(migrateToLatest(h.db, h.schema, { dir, manifest })).resolves.toBeUndefined();
  });

  it('refuses an applied migration whose manifest line was deleted and whose file changed, in one line', async () => {
    const { dir, manifest } = copy();
    appendFileSync(path.join(dir, '0132_roi_parts.ts'), '\n// an edit\n');
    const lines = readFileSync(manifest, 'utf8').split('\n');
    writeFileSync(manifest, lines.filter((l) => !l.endsWith('  0132_roi_parts.ts')).join('\n'));
    // The files alone say "a new migration, not recorded yet", which a start allows.
    expect(checkMigrations(dir, manifest)).toEqual({ changed: [], missing: [], unrecorded: ['0132_roi_parts.ts'] });
    await expect(migrateToLatest(h.db, h.schema, { dir, manifest })).rejects.toThrow(
      /^migration 0132_roi_parts\.ts is applied to the database but not recorded in \S*migrations\.sha256: an applied migration never changes \(restore its line and file, and add a new migration for the change\)$/,
    );
  });

  it('refuses a recorded migration whose file is gone, in one line, before any migration is loaded', async () => {
    const { dir, manifest } = copy();
    rmSync(path.join(dir, '0010_ledger.ts'));
    await expect(migrateToLatest(h.db, h.schema, { dir, manifest })).rejects.toThrow(
      /^migration 0010_ledger\.ts is recorded in \S*migrations\.sha256 but its file is gone: an applied migration is never removed$/,
    );
    // Its line deleted too: the database still names it.
    const lines = readFileSync(manifest, 'utf8').split('\n');
    writeFileSync(manifest, lines.filter((l) => !l.endsWith('  0010_ledger.ts')).join('\n'));
    await expect(migrateToLatest(h.db, h.schema, { dir, manifest })).rejects.toThrow(
      /^migration 0010_ledger\.ts is applied to the database but not recorded in \S*migrations\.sha256 \(file gone: 0010_ledger\.ts\): an applied migration never changes/,
    );
  });
});
