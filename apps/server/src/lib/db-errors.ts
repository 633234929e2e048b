import { AppError, type ErrorCode } from './errors';
/**
 * True for an error that says the database cannot be reached right now (rather than that the
 * query was wrong): refused or dropped connections, a PostgreSQL shutting down or restarting
 * (57P01–57P03), any connection exception (class 08), too many connections (53300), a pool that
 * could not get a connection in time. These answer 503: the request can be tried again.
 */
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const MESSAGES = [
  /^Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /Client was closed and is not queryable/i,
  /Connection ended unexpectedly/i,
  /terminating connection due to administrator command/i,
  /is not currently accepting connections/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

export function isDbUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
    // AggregateError (a host with several addresses, all refusing) carries the causes in errors[].
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => isDbUnavailable(x))) return true;
  }
  return false;
}

export const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

/**
 * The SQLSTATEs the database's own functions raise (migrations 0180 and 0181; the live
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
  /** app_transfer_as (and sessionCheck): the token names no live session (app_session) */
  US001: { code: 'UNAUTHORIZED', message: 'Invalid or expired token', field: undefined },
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
