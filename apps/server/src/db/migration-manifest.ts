import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Migrations never change once recorded (issue 31; docs/decisions/2026-11-27-migrations-never-change.md).
 * `migrations.sha256` beside the folder holds one line per migration file, `<sha256>  <file>`
 * (the format of `sha256sum`, so `cd migrations && sha256sum -c ../migrations.sha256` checks it
 * too). The server refuses to start, in one line, when a recorded file differs from its line or is
 * gone, or when the database has applied a migration the manifest does not record (migrateToLatest);
 * a test fails in CI on that and on a file not recorded yet.
 * `npm run db:manifest` records new files and never rewrites a line.
 */
export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
export const MANIFEST_FILE = path.join(import.meta.dirname, 'migrations.sha256');

const MIGRATION_FILE = /^\d{4}_[\w-]+\.ts$/;

export interface ManifestCheck {
  /** recorded files whose content is no longer what was recorded */
  changed: string[];
  /** recorded files that are gone */
  missing: string[];
  /** files not recorded yet (new: `npm run db:manifest`) */
  unrecorded: string[];
}

export function migrationFiles(dir = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => MIGRATION_FILE.test(f))
    .sort();
}

export function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function readManifest(manifest = MANIFEST_FILE): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(manifest)) return out;
  for (const line of readFileSync(manifest, 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim());
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

export function checkMigrations(dir = MIGRATIONS_DIR, manifest = MANIFEST_FILE): ManifestCheck {
  const recorded = readManifest(manifest);
  const files = migrationFiles(dir);
  return {
    changed: files.filter((f) => recorded.has(f) && recorded.get(f) !== sha256Of(path.join(dir, f))),
    missing: [...recorded.keys()].filter((f) => !files.includes(f)),
    unrecorded: files.filter((f) => !recorded.has(f)),
  };
}

/** The manifest's path as the start's line names it (relative to where the server runs). */
const manifestName = (manifest: string) => path.relative(process.cwd(), manifest) || manifest;

/** Throws one line naming the first changed or missing migration (the server's start refuses it). */
export function assertMigrationsUnchanged(dir = MIGRATIONS_DIR, manifest = MANIFEST_FILE): void {
  const { changed, missing } = checkMigrations(dir, manifest);
  const name = manifestName(manifest);
  if (changed.length)
    throw new Error(
      `migration ${changed.join(', ')} differs from its checksum in ${name}: an applied migration never changes (restore it, and add a new migration for the change)`,
    );
  if (missing.length) throw new Error(`migration ${missing.join(', ')} is recorded in ${name} but its file is gone: an applied migration is never removed`);
}

/**
 * Throws one line naming the migrations the database has applied (Kysely's names, without `.ts`)
 * that the manifest does not record: a line deleted from it must not let an edited or removed
 * applied migration start (its file would pass as a new one).
 */
export function assertAppliedRecorded(applied: readonly string[], dir = MIGRATIONS_DIR, manifest = MANIFEST_FILE): void {
  const recorded = readManifest(manifest);
  const files = new Set(migrationFiles(dir));
  const unrecorded = applied.map((n) => `${n}.ts`).filter((f) => !recorded.has(f));
  if (!unrecorded.length) return;
  const gone = unrecorded.filter((f) => !files.has(f));
  throw new Error(
    `migration ${unrecorded.join(', ')} is applied to the database but not recorded in ${manifestName(manifest)}${gone.length ? ` (file gone: ${gone.join(', ')})` : ''}: an applied migration never changes (restore its line and file, and add a new migration for the change)`,
  );
}

/** Appends a line for each migration file not recorded yet; returns their names. Recorded lines are never rewritten. */
export function recordNewMigrations(dir = MIGRATIONS_DIR, manifest = MANIFEST_FILE): string[] {
  const { unrecorded } = checkMigrations(dir, manifest);
  if (unrecorded.length) appendFileSync(manifest, unrecorded.map((f) => `${sha256Of(path.join(dir, f))}  ${f}\n`).join(''));
  return unrecorded;
}

export const MIGRATION_LIST_FILE = path.join(import.meta.dirname, 'migration-list.ts');

/** The text of migration-list.ts for these migration files (`npm run db:manifest` writes it). */
export function migrationListSource(files = migrationFiles()): string {
  const names = files.map((f) => f.replace(/\.ts$/, ''));
  const id = (name: string) => `m${name.slice(0, 4)}`;
  return [
    "import type { Migration } from 'kysely/migration';",
    ...names.map((n) => `import * as ${id(n)} from './migrations/${n}';`),
    '',
    '/**',
    ' * Every migration of ./migrations by its file name, in order: written by `npm run db:manifest`, checked',
    ' * by migration-manifest.test.ts. Imported with the rest of the code instead of found on disk at each',
    ' * start: a server or CLI process the tests start had Node strip 33 TypeScript files and load a second',
    ' * copy of kysely for them, about 0.35 CPU-s a start.',
    ' */',
    'export const MIGRATIONS: Readonly<Record<string, Migration>> = {',
    ...names.map((n) => `  '${n}': ${id(n)},`),
    '};',
    '',
  ].join('\n');
}
