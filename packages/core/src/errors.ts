/** 429 on every code route of an account past its guess budget (server.md section 9), the right code included. */
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Try again later.';
export const INVALID_2FA_MESSAGE = 'Invalid two-factor code';
export const TWO_FA_REQUIRED_MESSAGE = 'Two-factor code is required';

/**
 * THE error vocabulary (issue 47): every failure the server sends is `{success:false, code,
 * message, errors?}` with a `code` from this table, and the table says what the code means
 * everywhere: its HTTP status, its message when the thrower gives none, whether the answer
 * carries Retry-After, and the request field it belongs to where it always belongs to one. The
 * server builds every failure from it (apps/server/src/lib/errors.ts) and the browser dispatches
 * on the code, never on the status or the message text (apps/web/src/lib/api-client.ts).
 */
export interface ErrorSpec {
  status: number;
  /** the message when the thrower gives none (and, for transport-level failures, the only one) */
  message?: string;
  /** the answer carries a Retry-After header: the same request may work later */
  retryAfter?: boolean;
  /** the request field the message belongs to (sent as `errors[field]`) */
  field?: string;
  /** what the browser does with it: show it on the form (or as a toast), sign out, go to /maintenance, or say the server is out of reach and offer Retry */
  kind: 'refused' | 'session' | 'maintenance' | 'outage' | 'bug';
}

export const ERRORS = {
  /** the request's input breaks a rule; `errors` names the fields */
  VALIDATION: { status: 400, kind: 'refused' },
  /** the request is well-formed but cannot be done (a state, a rule) */
  BAD_REQUEST: { status: 400, kind: 'refused' },
  INVALID_JSON: { status: 400, message: 'Invalid JSON body', kind: 'refused' },
  MALFORMED_REQUEST: { status: 400, message: 'Malformed request', kind: 'refused' },
  INSUFFICIENT_BALANCE: { status: 400, message: 'Insufficient balance', kind: 'refused' },
  TWO_FA_REQUIRED: { status: 400, message: TWO_FA_REQUIRED_MESSAGE, field: 'totp_code', kind: 'refused' },
  INVALID_2FA: { status: 400, message: INVALID_2FA_MESSAGE, field: 'totp_code', kind: 'refused' },
  UNAUTHENTICATED: { status: 401, message: 'Unauthorized', kind: 'session' },
  FORBIDDEN: { status: 403, message: 'Forbidden', kind: 'session' },
  NOT_FOUND: { status: 404, message: 'Not found', kind: 'refused' },
  REQUEST_TIMEOUT: { status: 408, message: 'Request timed out', retryAfter: false, kind: 'outage' },
  CONFLICT: { status: 409, kind: 'refused' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large', kind: 'refused' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type', kind: 'refused' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are too large', kind: 'refused' },
  /** a request-rate limit (per IP, per e-mail, per account's money routes) */
  RATE_LIMITED: { status: 429, message: 'Too many requests, please try again later.', retryAfter: true, kind: 'refused' },
  /** a guess budget or the password back-off is spent (server design, section 9) */
  TOO_MANY_ATTEMPTS: { status: 429, message: TOO_MANY_ATTEMPTS_MESSAGE, kind: 'refused' },
  /** the admin's maintenance switch is on: the only code that sends the browser to /maintenance */
  MAINTENANCE: { status: 503, message: 'Server is under maintenance', retryAfter: true, kind: 'maintenance' },
  /** a fault the server is in: the database out of reach, restarting, dropped, its schema missing or behind, our role refused; the storage full or failing; out of memory or connections (the reason is in the log, the metrics and health) */
  UNAVAILABLE: { status: 503, message: 'Service temporarily unavailable', retryAfter: true, kind: 'outage' },
  /** the payment provider or a chain endpoint cannot be reached */
  PROVIDER_UNAVAILABLE: { status: 503, message: 'Payment provider is unavailable. Please try again later.', retryAfter: true, kind: 'outage' },
  /** a bug: nothing more is said */
  INTERNAL: { status: 500, message: 'Internal server error', kind: 'bug' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** The spec of a code (a code from elsewhere — an older server — reads as a bug). */
export const errorSpec = (code: string | undefined): ErrorSpec => (code && Object.hasOwn(ERRORS, code) ? ERRORS[code as ErrorCode] : ERRORS.INTERNAL);

/** The codes with status 5xx: route() declares them on every route (apps/server/src/lib/route.ts). */
export const SERVER_ERROR_CODES = ERROR_CODES.filter((c) => ERRORS[c].status >= 500);
