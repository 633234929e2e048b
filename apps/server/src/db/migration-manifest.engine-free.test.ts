import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assertMigrationsUnchanged,
  checkMigrations,
  MIGRATION_LIST_FILE,
  migrationFiles,
  migrationListSource,
  MIGRATIONS_DIR,
  recordNewMigrations,
} from './migration-manifest';
import { MIGRATIONS } from './migration-list';

/** Migrations never change once recorded, and never import one another (issue 31). */
describe('migrations never change', () => {
  const temps: string[] = [];
  afterEach(() => {
    for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
  });
  /** A copy of the migrations folder and a manifest recording it, in a temporary directory. */
  const copy = () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    temps.push(root);
    const dir = path.join(root, 'migrations');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const manifest = path.join(root, 'migrations.sha256');
    recordNewMigrations(dir, manifest);
    return { dir, manifest };
  };

  it('migration-list.ts runs every file of the folder, in name order, each with up and down (npm run db:manifest writes it)', () => {
    expect(readFileSync(MIGRATION_LIST_FILE, 'utf8')).toBe(migrationListSource());
    expect(Object.keys(MIGRATIONS)).toEqual(migrationFiles().map((f) => f.replace(/\.ts$/, '')));
    for (const m of Object.values(MIGRATIONS)) expect([typeof m.up, typeof m.down]).toEqual(['function', 'function']);
  });

  it('every migration file is recorded in migrations.sha256 as it is (npm run db:manifest records new ones)', () => {
    expect(checkMigrations()).toEqual({ changed: [], missing: [], unrecorded: [] });
  });

  it('refuses a recorded migration that was edited or removed, in one line', () => {
    const { dir, manifest } = copy();
    expect(() => assertMigrationsUnchanged(dir, manifest)).not.toThrow();
    appendFileSync(path.join(dir, '0132_roi_parts.ts'), '\n// an edit\n');
    expect(() => assertMigrationsUnchanged(dir, manifest)).toThrow(
      /^migration 0132_roi_parts\.ts differs from its checksum in .*migrations\.sha256: an applied migration never changes/,
    );
    const { dir: dir2, manifest: manifest2 } = copy();
    rmSync(path.join(dir2, '0010_ledger.ts'));
    expect(() => assertMigrationsUnchanged(dir2, manifest2)).toThrow(/^migration 0010_ledger\.ts is recorded in .* but its file is gone/);
  });

  it('records new files only, never rewriting a recorded line', () => {
    const { dir, manifest } = copy();
    const before = readFileSync(manifest, 'utf8');
    writeFileSync(path.join(dir, '9999_new.ts'), 'export async function up() {}\n');
    expect(checkMigrations(dir, manifest).unrecorded).toEqual(['9999_new.ts']);
    expect(recordNewMigrations(dir, manifest)).toEqual(['9999_new.ts']);
    const after = readFileSync(manifest, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toMatch(/^[0-9a-f]{64} {2}9999_new\.ts\n$/);
    // An edited recorded file stays refused: recording does not take the new content.
    appendFileSync(path.join(dir, '0010_ledger.ts'), '\n// an edit\n');
    expect(recordNewMigrations(dir, manifest)).toEqual([]);
    expect(checkMigrations(dir, manifest).changed).toEqual(['0010_ledger.ts']);
  });

  it('a migration imports nothing but kysely, and nothing imports a migration but the migrator list (migration-list.ts)', () => {
    const importsOf = (text: string) =>
      [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]/g)].map(
        (m) => m[1] ?? m[2] ?? m[3] ?? '',
      );
    const offenders = migrationFiles().flatMap((f) =>
      importsOf(readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8'))
        .filter((spec) => spec !== 'kysely')
        .map((spec) => `${f} imports ${spec}`),
    );
    expect(offenders).toEqual([]);

    const repo = path.resolve(import.meta.dirname, '../../../..');
    const walk = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) =>
        e.name === 'node_modules' || e.name === 'dist'
          ? []
          : e.isDirectory()
            ? walk(path.join(d, e.name))
            : /\.(ts|tsx|mts)$/.test(e.name)
              ? [path.join(d, e.name)]
              : [],
      );
    const importers = [
      ...walk(path.join(repo, 'apps')),
      ...walk(path.join(repo, 'bench')),
      ...walk(path.join(repo, 'packages')),
      ...walk(path.join(repo, 'e2e')),
    ]
      .filter((f) => !f.startsWith(MIGRATIONS_DIR + path.sep) && f !== path.join(import.meta.dirname, 'migration-list.ts'))
      .filter((f) => importsOf(readFileSync(f, 'utf8')).some((spec) => /(^|\/)migrations\/\d{4}_/.test(spec)))
      .map((f) => path.relative(repo, f));
    expect(importers).toEqual([]);
  });
});
