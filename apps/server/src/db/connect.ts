import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect';
import { TemplateMemoryFS, type PgliteTemplate } from './pglite-template';
import type { Database, DB } from './types';

export type DbKind = 'pglite' | 'postgres';
export interface DbHandle {
  db: DB;
  kind: DbKind;
  close(): Promise<void>;
}

const INT8_OID = 20;
const DATE_OID = 1082;

// int8 (ids, micro-units, counts) reads as bigint so no amount ever passes through a JS float.
pg.types.setTypeParser(INT8_OID, (v: string) => BigInt(v));
// A calendar date stays the 'YYYY-MM-DD' text it is: a Date object would shift with the time zone.
pg.types.setTypeParser(DATE_OID, (v: string) => v);

export interface ConnectOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined keeps PGlite in memory (tests). */
  pgliteDir?: string | undefined;
  /** PGlite only: an in-memory copy of this data directory instead of a new database (tests' migrated template). */
  pgliteTemplate?: PgliteTemplate;
  /**
   * PGlite only: its buffer pool (shared_buffers, e.g. '4MB'); unset keeps PGlite's 128 MB, which it
   * zeroes at every start (PGLITE_SHARED_BUFFERS; the tests take 4 MB, test/process-tuning.ts).
   */
  pgliteSharedBuffers?: string | undefined;
  /** PostgreSQL schema to use (tests give each file its own). */
  schema?: string;
  poolSize?: number;
  /** An idle connection died (PostgreSQL restarted, a backend was terminated). */
  onPoolError?: (err: Error) => void;
}

// Kysely does not expose its pool; the metrics read the pool's counters through this.
const pools = new WeakMap<object, pg.Pool>();

/** Connections of a PostgreSQL database's pool; undefined on PGlite (one in-process connection). */
export function poolStats(db: object): { total: number; idle: number; waiting: number } | undefined {
  const pool = pools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : undefined;
}

/** Statement texts given a name (so prepared once per connection), at most PREPARED_MAX of them. */
const preparedNames = new Map<string, string>();
const PREPARED_MAX = 500;
const DML = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Every parameterised query Kysely sends is an unnamed statement that PostgreSQL parses and plans
 * again each time; for the hot reads (session, wallet) and the one-statement ledger entry that is
 * most of the server-side cost. A named statement is parsed once per connection and its plan
 * cached. Bounded: the first PREPARED_MAX distinct texts are named, later ones run unnamed (texts
 * with a variable-length `in (…)` list would otherwise grow without end). DDL is never named.
 */
function prepareHotStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  // pg's query() is heavily overloaded; only the (text, values) form Kysely uses is rewritten.
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && values.length && DML.test(text)) {
      let name = preparedNames.get(text);
      if (!name && preparedNames.size < PREPARED_MAX) preparedNames.set(text, (name = `k${preparedNames.size}`));
      if (name) return query({ name, text, values });
    }
    return query(...args);
  };
}

type PgliteAssets = { pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob };
let pgliteAssets: Promise<PgliteAssets> | undefined;
// The server's TypeScript libs declare WebAssembly's types but not the global object Node has.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }).WebAssembly;
/**
 * PGlite's WebAssembly, compiled once per process, and its file-system bundle, read once. Left to
 * itself PGlite reads and compiles both for every database it opens, and its hot functions are
 * optimised again each time: a test worker opens one database per test file.
 */
function loadPgliteAssets(): Promise<PgliteAssets> {
  pgliteAssets ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, initdbWasmModule, fsBundle] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')).then((b) => wasm.compile(b)),
      readFile(path.join(dist, 'initdb.wasm')).then((b) => wasm.compile(b)),
      readFile(path.join(dist, 'pglite.data')).then((b) => new Blob([b])),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle };
  })();
  return pgliteAssets;
}

export async function connectDb(opts: ConnectOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      // While PostgreSQL is away a request fails (503) after this long instead of queueing forever.
      connectionTimeoutMillis: 10_000,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // Without a listener, an idle client's 'error' (a terminated backend, a PostgreSQL restart)
    // is an uncaught exception that ends the process. The pool has already dropped that client
    // and opens a new connection for the next query, so noting it is all there is to do.
    pool.on('error', (err) => opts.onPoolError?.(err));
    // A client checked out between two queries of a transaction has no pool listener: the same
    // crash, unless each client carries its own. The query that follows fails and its request 503s.
    pool.on('connect', (client) => {
      client.on('error', (err) => opts.onPoolError?.(err));
      prepareHotStatements(client);
    });
    // Fail fast with a clear line rather than on the first request.
    const client = await pool.connect();
    client.release();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  if (opts.pgliteDir) mkdirSync(path.dirname(opts.pgliteDir), { recursive: true });
  const pglite = await PGlite.create(opts.pgliteDir, {
    ...(await loadPgliteAssets()),
    ...(opts.pgliteTemplate ? { fs: new TemplateMemoryFS(opts.pgliteTemplate) } : {}),
    ...(opts.pgliteSharedBuffers ? { postgresqlconf: `shared_buffers = ${opts.pgliteSharedBuffers}\n` } : {}),
    parsers: { [INT8_OID]: (v: string) => BigInt(v), [DATE_OID]: (v: string) => v },
    serializers: { [INT8_OID]: (v: unknown) => String(v) },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
