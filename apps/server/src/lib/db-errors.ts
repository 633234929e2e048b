import { RECEIVER_UNVERIFIED_MESSAGE } from '@app/core';
import { AppError, type ErrorCode } from './errors';
/**
 * THE table of database (and storage) failures that mean "the service cannot do this right now"
 * rather than "the request or the code is wrong". Every one answers 503 'Service temporarily
 * unavailable' with a Retry-After, is counted per reason (metrics), and marks /api/health (a
 * 'disk' or 'resources' failure keeps health at 503 for a while: a full disk does not stop
 * `select 1`). Anything not matched here is a 4xx the code decided, or a 500 (a bug).
 *
 * Matched on the SQLSTATE (PostgreSQL and PGlite both carry it as `code`), on Node's errno code
 * (a socket, or a file under DATA_DIR), and, for the few drivers that give no code, on the message.
 */
export type UnavailableReason =
  /** the connection to PostgreSQL is refused, cut, or timed out */
  | 'connection'
  /** PostgreSQL is shutting down, restarting or starting */
  | 'shutdown'
  /** the database does not exist (dropped) or refuses connections */
  | 'database'
  /** our role may not log in or lacks its privileges (revoked, dropped, password changed) */
  | 'auth'
  /** no space left (SQLSTATE 53100, ENOSPC, a quota) or the storage fails (I/O error, read-only) */
  | 'disk'
  /** out of memory, too many connections, a configured limit */
  | 'resources'
  /**
   * the schema is missing or behind: a table, function or column the code uses does not exist (a
   * database dropped and created again empty under the server, an older dump restored)
   */
  | 'schema';

export interface Unavailable {
  reason: UnavailableReason;
  /** the SQLSTATE or errno code that matched (for the log, health and metrics) */
  code: string;
  /** what the Retry-After header says, in seconds */
  retryAfterSeconds: number;
}

/** SQLSTATE classes (two characters) and exact codes (five) → reason. An exact code wins over its class. */
const SQLSTATE: Record<string, UnavailableReason> = {
  '08': 'connection', // connection exception (08000, 08003, 08006, 08001, 08004, 08P01)
  '28': 'auth', // invalid authorization: 28000 (role may not log in, or does not exist), 28P01 (password)
  '53': 'resources', // insufficient resources (class)
  '53100': 'disk', // disk_full: "could not extend file …: No space left on device"
  // too_many_connections: refused at connect, a burst the pool rides out. Not 'resources', which
  // holds /api/health at 503: a burst on every replica must not take them all out of the balancer.
  '53300': 'connection',
  '57P01': 'shutdown', // admin_shutdown: "terminating connection due to administrator command"
  '57P02': 'shutdown', // crash_shutdown
  '57P03': 'shutdown', // cannot_connect_now: starting up, shutting down, in recovery
  '57P04': 'database', // database_dropped
  '3D000': 'database', // invalid_catalog_name: "database … does not exist"
  '42501': 'auth', // insufficient_privilege: CONNECT or a table privilege revoked from our role
  '58030': 'disk', // io_error
  '25006': 'database', // read_only_sql_transaction: a standby after a failover, or default_transaction_read_only set by an operator
  // The code's statements name only what its migrations made: one missing at run time means the
  // schema is not there (the database was dropped and created again, an older dump restored).
  '42P01': 'schema', // undefined_table
  '42883': 'schema', // undefined_function
  '42703': 'schema', // undefined_column
};

/** Node errno codes: a socket to PostgreSQL, or a write under DATA_DIR (PGlite, the dev outbox, the secret). */
const ERRNO: Record<string, UnavailableReason> = {
  ECONNREFUSED: 'connection',
  ECONNRESET: 'connection',
  ETIMEDOUT: 'connection',
  EPIPE: 'connection',
  ENOTFOUND: 'connection',
  EAI_AGAIN: 'connection',
  EHOSTUNREACH: 'connection',
  ENETUNREACH: 'connection',
  ENOSPC: 'disk',
  EDQUOT: 'disk',
  EROFS: 'disk',
  EIO: 'disk',
  ENOMEM: 'resources',
  EMFILE: 'resources',
  ENFILE: 'resources',
};

/** Errors without a code (pg's pool and client, PGlite's closed instance) → reason. */
const MESSAGES: [RegExp, UnavailableReason][] = [
  [/^Connection terminated/i, 'connection'],
  [/timeout exceeded when trying to connect/i, 'connection'],
  [/Connection ended unexpectedly/i, 'connection'],
  [/not queryable/i, 'connection'],
  [/terminating connection due to administrator command/i, 'shutdown'],
  [/the database system is (starting up|shutting down|in recovery mode)/i, 'shutdown'],
  // 55000 object_not_in_prerequisite_state is mostly a bug; with this text it is ALTER DATABASE … ALLOW_CONNECTIONS false.
  [/is not currently accepting connections/i, 'database'],
  [/No space left on device/i, 'disk'],
];

/** Seconds a client is told to wait: a connection comes back in seconds, a full disk or a revoked role needs an operator. */
const RETRY_AFTER: Record<UnavailableReason, number> = { connection: 5, shutdown: 5, database: 30, auth: 30, disk: 30, resources: 10, schema: 30 };

function byCode(code: string): UnavailableReason | undefined {
  if (/^[0-9A-Z]{5}$/.test(code)) return SQLSTATE[code] ?? SQLSTATE[code.slice(0, 2)];
  return ERRNO[code];
}

/** What the failure means for the API, or undefined when it is not an "unavailable" one (a 4xx or a bug). */
export function classifyDbError(err: unknown): Unavailable | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const byItsCode = typeof code === 'string' ? byCode(code) : undefined;
    if (byItsCode) return { reason: byItsCode, code: code as string, retryAfterSeconds: RETRY_AFTER[byItsCode] };
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string') {
      const hit = MESSAGES.find(([re]) => re.test(message));
      if (hit) return { reason: hit[1], code: typeof code === 'string' ? code : 'message', retryAfterSeconds: RETRY_AFTER[hit[1]] };
    }
    // AggregateError (a host with several addresses, all refusing) carries the causes in errors[].
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors))
      for (const x of errors) {
        const inner = classifyDbError(x);
        if (inner) return inner;
      }
  }
  return undefined;
}

export function isDbUnavailable(err: unknown): boolean {
  return classifyDbError(err) !== undefined;
}

export const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

/**
 * The SQLSTATEs the database's own functions raise (migrations 0180, 0181 and 0190; the live
 * definitions in db/schema.sql), each with the API error it is. Errors cross from SQL to the API
 * by code, never by message text. `field` names the request field the error belongs to where a
 * route asks for field errors (dbError's `fields`).
 */
export const DB_ERRORS = {
  /** app_post_many: a user account would go below zero (also the CHECK constraint, 23514) */
  UL001: { code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance', field: 'amount_usd' },
  /** app_post_many: an entry that does not balance, or has fewer than two legs (a bug, never user input) */
  UL002: { code: 'INTERNAL', message: 'Internal server error', field: undefined },
  /** a balance written by anything but app_post_many (a bug) */
  UL003: { code: 'INTERNAL', message: 'Internal server error', field: undefined },
  /** app_transfer: the receiver does not exist or is blocked */
  UT001: { code: 'NOT_FOUND', message: 'User not found', field: 'username' },
  /** app_transfer: the receiver is the sender */
  UT002: { code: 'VALIDATION', message: 'You cannot transfer to yourself', field: 'username' },
  /** app_transfer: the receiver has not verified its e-mail (migration 0190: unverified accounts hold no money) */
  UT003: { code: 'VALIDATION', message: RECEIVER_UNVERIFIED_MESSAGE, field: 'username' },
  /** app_transfer_as (and sessionCheck): the token names no live session (app_session) */
  US001: { code: 'UNAUTHENTICATED', message: 'Invalid or expired token', field: undefined },
  /** app_transfer_as (and sessionCheck): the session's user is blocked */
  US002: { code: 'FORBIDDEN', message: 'Your account has been blocked', field: undefined },
} as const satisfies Record<string, { code: ErrorCode; message: string; field: string | undefined }>;

export type DbErrorCode = keyof typeof DB_ERRORS;
/** The last line under app_post_many's conditional debit: the CHECK that a user balance is not negative. */
const BALANCE_CHECK = 'ledger_accounts_user_balance_nonneg';

/** The API error of one of the codes (a check made in TypeScript on what a statement read, e.g. a session's status). */
export function appErrorFor(code: DbErrorCode, opts: { withFields?: boolean } = {}): AppError {
  const e = DB_ERRORS[code];
  return new AppError(e.code, e.message, opts.withFields && e.field ? { [e.field]: e.message } : undefined);
}

/**
 * The AppError a database error stands for, or undefined when it is none of ours (the caller
 * rethrows it). `withFields` adds the field error for the codes that name a field (a form route).
 */
export function dbError(err: unknown, opts: { withFields?: boolean } = {}): AppError | undefined {
  const e0 = err as { code?: unknown; constraint?: unknown } | null;
  const code = e0?.code === '23514' && e0.constraint === BALANCE_CHECK ? 'UL001' : e0?.code;
  if (typeof code !== 'string' || !Object.hasOwn(DB_ERRORS, code)) return undefined;
  return appErrorFor(code as DbErrorCode, opts);
}
