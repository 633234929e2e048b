import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';

/**
 * The database's tables. Each module adds its own tables to this interface by declaration
 * merging (`declare module '../../db/types' { interface Database { … } }`), so the table types
 * live beside the module that owns them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Database {}

export type DB = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the global handle or a transaction: services take this and use only it. */
export type Executor = DB | Tx;

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint identity ids: every int8 column reads as a JS bigint (see connect.ts); send them as strings. */
export type Id = Generated<bigint>;
/** bigint micro-units: read as bigint, written as bigint. */
export type Micro = ColumnType<bigint, bigint | string, bigint | string>;
/** bigint micro-units with a database default (optional on insert). */
export type MicroDefault = ColumnType<bigint, bigint | string | undefined, bigint | string>;
