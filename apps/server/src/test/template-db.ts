import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectDb } from '../db/connect';
import { migrateToLatest } from '../db/migrate';
import { readPgliteTemplate, type PgliteTemplate } from '../db/pglite-template';
import { provided } from './provided';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Name of the migrated template database on TEST_DATABASE_URL's server (server-postgres project). */
    pgTemplate: string;
    /** A DATA_DIR holding a migrated on-disk PGlite, for spawned server and CLI processes to copy. */
    pgliteDataDir: string;
  }
}

/**
 * Migrated template databases, made once per test run instead of once per test file.
 *
 * A fresh in-memory PGlite runs initdb in WebAssembly (3–8 s on a two-core machine) and then the
 * migrations; an in-memory copy of the data directory of one that has done both starts in a fraction
 * of a second (db/pglite-template.ts).
 * On PostgreSQL, `create database … template` copies a migrated database in about 0.2 s, where a
 * fresh schema and its migrations took 1.5 s. The migrations still run, once, in every test run, so
 * a broken migration fails the run; the migration tests themselves walk every migration down and up.
 */

/**
 * A migrated PGlite data directory on disk, for the real server and CLI processes the fault, ops
 * and browser tests start: copying it (about 0.2 s) spares each of them initdb and the migrations.
 * Returns the directory that holds `pglite/`, as a server's DATA_DIR would.
 */
export async function makePgliteDataDirTemplate(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'usdt-template-dir-'));
  const handle = await connectDb({ pgliteDir: path.join(dir, 'pglite') });
  await migrateToLatest(handle.db);
  await handle.close();
  return dir;
}

/**
 * A new DATA_DIR holding a copy of the run's migrated PGlite (global-setup's `pgliteDataDir`).
 * Outside a test run (a benchmark starting the app) there is no template: the directory is empty
 * and the server makes its database as `npm start` does.
 */
export function newDataDir(prefix = 'usdt-data-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = provided('pgliteDataDir');
  if (template) cpSync(path.join(template, 'pglite'), path.join(dir, 'pglite'), { recursive: true });
  return dir;
}

let template: PgliteTemplate | undefined;
/** The migrated data directory (global-setup's `pgliteDataDir`) in memory, read once per worker. */
export function pgliteTemplate(dataDir: string): PgliteTemplate {
  template ??= readPgliteTemplate(path.join(dataDir, 'pglite'));
  return template;
}

/** Creates and migrates a template database on the server of `url`; returns its name. */
export async function makePostgresTemplate(url: string): Promise<string> {
  const name = `tpl_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  const handle = await connectDb({ databaseUrl: databaseUrlFor(url, name), poolSize: 1 });
  await migrateToLatest(handle.db);
  await handle.close();
  return name;
}

/** A new database copied from the template. */
export async function cloneDatabase(url: string, template: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name} template ${template}`);
  return name;
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await adminQuery(url, `drop database if exists ${name} with (force)`);
}

export function databaseUrlFor(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement (create or drop a database) on the server of `url`, in a connection of its own. */
export async function adminQuery(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

export function removePath(file: string): void {
  rmSync(file, { force: true, recursive: true });
}
