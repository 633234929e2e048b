import { parse, protocol, type PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * Kysely on PGlite. PGlite is one connection, so the driver hands it out to one user at a time:
 * a transaction keeps it until commit or rollback, and every other query waits its turn. (A query
 * on the global handle inside a transaction would therefore wait forever: always use the tx.)
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => next);
    await previous;
    this.connection.release = release;
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async savepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`savepoint ${name}`));
  }
  async rollbackToSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`rollback to savepoint ${name}`));
  }
  async releaseSavepoint(conn: DatabaseConnection, name: string): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw(`release savepoint ${name}`));
  }

  async releaseConnection(): Promise<void> {
    const release = this.connection.release;
    this.connection.release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.queue;
    if (!this.pglite.closed) await this.pglite.close();
  }
}

/** Statement texts prepared under a name on this PGlite, at most PREPARED_MAX of them (as db/connect.ts on PostgreSQL). */
const PREPARED_MAX = 500;
const DML = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * A recursive walk (the sponsor chain) is never prepared: after five runs PostgreSQL may switch a
 * prepared statement to a generic plan, and for the ancestor walk that plan took a 10,000-deep chain
 * past team.test.ts's 30 s (each run planned for its own parameters takes 5 s).
 */
const RECURSIVE = /\bwith\s+recursive\b/i;
type Primitive = string | number | bigint | boolean | Date | null | undefined;
const isPrimitive = (v: unknown): v is Primitive =>
  v === null || v === undefined || v instanceof Date || ['string', 'number', 'bigint', 'boolean'].includes(typeof v);
/** A plain value, or a flat array of them (the coalesced reads' token hashes). */
const isParam = (v: unknown): v is Primitive | Primitive[] => isPrimitive(v) || (Array.isArray(v) && v.every(isPrimitive));

const textOf = (v: Exclude<Primitive, null | undefined>) => (v instanceof Date ? v.toISOString() : String(v));
/** PostgreSQL's text form of a parameter: an array as an array literal, every element quoted (as node-postgres writes it). */
function paramText(v: Primitive | Primitive[]): string | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) return textOf(v);
  return `{${v.map((e) => (e === null || e === undefined ? 'NULL' : `"${textOf(e).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

class PGliteConnection implements DatabaseConnection {
  release: (() => void) | undefined;
  private readonly prepared = new Map<string, string>();
  constructor(private readonly pglite: PGlite) {}

  /**
   * PGlite's query() makes six protocol calls into the wasm backend per statement (parse, describe
   * statement, bind, describe portal, execute, sync) and PostgreSQL parses and plans the text again
   * each time: ~0.9 ms for the wallet's session statement, of which well under 0.1 ms is the
   * execution (issue 14). A parameterised DML statement whose parameters are plain values (or flat
   * arrays of them, as the coalesced reads send) is instead prepared once under a name, then run as
   * one call (bind, describe, execute, sync): ~0.1 ms. Parameters go as text with unknown type, as node-postgres sends them, so PostgreSQL
   * infers their types when it prepares the statement. Anything else takes query().
   */
  private async fast<R>(compiled: CompiledQuery): Promise<QueryResult<R> | undefined> {
    const params = compiled.parameters;
    if (!params.length || !DML.test(compiled.sql) || RECURSIVE.test(compiled.sql) || !params.every(isParam)) return undefined;
    let name = this.prepared.get(compiled.sql);
    if (!name) {
      if (this.prepared.size >= PREPARED_MAX) return undefined;
      name = `k${this.prepared.size}`;
      // Prepared on its own, and remembered only once PostgreSQL accepted it.
      await this.pglite.execProtocol(concat([protocol.serialize.parse({ name, text: compiled.sql, types: [] }), protocol.serialize.sync()]));
      this.prepared.set(compiled.sql, name);
    }
    const values = params.map(paramText);
    const r = await this.pglite.execProtocol(
      concat([
        protocol.serialize.bind({ statement: name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
    );
    const result = parse.parseResults(r.messages, (this.pglite as unknown as { parsers: Record<number, (v: string) => unknown> }).parsers)[0];
    return this.toQueryResult<R>(compiled, (result?.rows ?? []) as R[], result?.affectedRows);
  }

  private toQueryResult<R>(compiled: CompiledQuery, rows: R[], affected: number | undefined): QueryResult<R> {
    return {
      rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiled.sql) ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const fast = await this.fast<R>(compiled);
    if (fast) return fast;
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters]);
    return this.toQueryResult<R>(compiled, result.rows, result.affectedRows);
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursors; Kysely's stream API is unused here
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite');
  }
}
