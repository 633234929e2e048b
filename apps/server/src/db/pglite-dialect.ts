import type { PGlite } from '@electric-sql/pglite';
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

class PGliteConnection implements DatabaseConnection {
  release: (() => void) | undefined;
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters]);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiled.sql) ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursors; Kysely's stream API is unused here
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite');
  }
}
