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
