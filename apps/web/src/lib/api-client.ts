import { errorSpec, type ErrorCode } from '@app/core/errors';
import { toast } from './toast';
import { takeEarlyAnswer } from './early-form';
import { takeEarlyResponse } from './early-requests';
import { storage } from './storage';

/**
 * A failed call: the server's message (or a fallback), its status, its code from the one error
 * table (`@app/core/errors`; NETWORK when no answer came) and per-field errors.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: Record<string, string> = {},
    readonly code: ErrorCode | 'NETWORK' = status === 0 ? 'NETWORK' : 'INTERNAL',
  ) {
    super(message);
  }
  /** The server could not be reached or cannot serve now (an outage, not a refusal): what is on screen stays, with Retry. */
  get isOutage(): boolean {
    return this.code === 'NETWORK' || errorSpec(this.code).kind === 'outage';
  }
}

/**
 * Whether the outage notice (with Retry) has already told the person about this failure: a screen
 * then does not toast its own "Failed to fetch …" on top of it (it still shows its error in place).
 */
export function toldGlobally(err: unknown): boolean {
  return err instanceof ApiError && err.code !== 'NETWORK' && err.code !== 'PROVIDER_UNAVAILABLE' && errorSpec(err.code).kind === 'outage';
}

/** What the app says while the server is out of reach (issue 47): never 'under maintenance', which only MAINTENANCE means. */
export const OUTAGE_MESSAGE = "We can't reach the server right now";

/** What Retry on the outage notice does: the app's screens read again (set by the query client). */
let retryAll: () => void = () => window.location.reload();
export function setOutageRetry(fn: () => void): void {
  retryAll = fn;
}

type Navigate = (to: string, state?: SignedOutState) => void;
let navigateTo: Navigate = (to) => window.location.assign(to);

/** The router state of the move to /login after a session ended elsewhere (app/guards.tsx shows why). */
export interface SignedOutState {
  signedOut: true;
}
/** The router hands its navigate function here so global redirects stay inside the SPA. */
export function setApiNavigator(fn: Navigate): void {
  navigateTo = fn;
}

/**
 * The token that last got an answer in this tab. A session that worked and is now refused was
 * ended elsewhere; a token that never worked (a forged or stale sign-in link) was never a session.
 */
let liveToken: string | null = null;

/**
 * Global handling of spec section 8: a 401 (or a 403 'Invalid or expired token') clears the token;
 * MAINTENANCE (the one 503 that is maintenance) toasts 'Server is under maintenance' and goes to
 * /maintenance; an outage says so with Retry and keeps the screen. Returns true when the answer
 * is to be dropped: a session that had worked (in this tab, or earlier on this device: `session_worked`) just
 * ended: signed out elsewhere (a Revoke on /security, a password change or reset, a block), so the
 * user goes to /login, which says why (issue 32; the spec's move to / left them on the marketing
 * page with 'Invalid or expired token'). A token that never worked still goes to / as the spec says.
 */
function handleGlobal(status: number, code: ErrorCode, message: string | undefined, path: string, sentToken: string | null): boolean {
  if (status === 401 || (status === 403 && message === 'Invalid or expired token')) {
    // Login and register answer 401 for bad credentials: those are shown on the form, not a redirect.
    if (path.startsWith('/api/auth/login') || path.startsWith('/api/auth/register') || path.startsWith('/api/auth/verify-otp')) return false;
    if (!sentToken) return false;
    // Another answer already ended this session (the screen asks for several things at once).
    if (storage.getToken() !== sentToken) return true;
    // Earlier on this device counts too: a page opened fresh (its first request refused) still ended a real session.
    const wasLive = liveToken === sentToken || storage.sessionWorked();
    storage.clearSession();
    if (!wasLive) {
      navigateTo('/');
      return false;
    }
    navigateTo('/login', { signedOut: true });
    return true;
  } else if (code === 'MAINTENANCE') {
    // Only the admin's maintenance switch sends people to /maintenance (issue 47): a database
    // blip or a provider outage is not maintenance, and the screen they are on stays.
    toast.error('Server is under maintenance', { id: 'maintenance' });
    if (window.location.pathname !== '/maintenance') navigateTo('/maintenance');
  } else if (errorSpec(code).kind === 'outage' && code !== 'PROVIDER_UNAVAILABLE') {
    // (A provider outage is told by the screen that asked, in the server's words: our server answered.)
    toast.error(OUTAGE_MESSAGE, { id: 'outage', description: 'What you see was loaded earlier.', action: { label: 'Retry', onClick: () => retryAll() } });
  }
  return false;
}

/** What every answer is (server design, section 2); `data` is typed per contract by call(). */
export interface Envelope {
  success: boolean;
  code?: ErrorCode;
  message?: string;
  data?: unknown;
  errors?: Record<string, string>;
}

/** One request with the bearer token and the global handling above; call() (lib/call.ts) types it per contract. */
export async function request(method: string, path: string, body?: unknown, query?: Record<string, unknown>): Promise<Envelope> {
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = storage.getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    // The screen's first read may already be on its way, started by the entry (early-requests.ts).
    // A login sent by login.html's form before the app was ready (early-form.ts):
    // its answer, when this is the same request, is this one's.
    const early =
      method === 'GET' && url.search === ''
        ? takeEarlyResponse(url.pathname, token)
        : method === 'POST' && body !== undefined
          ? takeEarlyAnswer(url.pathname, JSON.stringify(body))
          : null;
    res = await (early ?? fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  } catch {
    throw new ApiError('Network error. Please check your connection.', 0);
  }
  let json: Envelope | undefined;
  try {
    // The one place JSON becomes a type: the server checks every answer against its contract.
    json = (await res.json()) as Envelope;
  } catch {
    json = undefined;
  }
  if (!res.ok || json?.success === false) {
    // The session ended and the app is on its way to /login: this answer has no one left to tell,
    // and settling it would make the screen being left toast 'Invalid or expired token' on the way.
    const code = json?.code ?? codeOfStatus(res.status);
    if (handleGlobal(res.status, code, json?.message, url.pathname, token)) return new Promise<never>(() => undefined);
    // No server message: leave it empty so each screen shows its own fallback text.
    throw new ApiError(json?.message ?? '', res.status, json?.errors ?? {}, code);
  }
  if (token && liveToken !== token && storage.getToken() === token) {
    liveToken = token;
    try {
      storage.markSessionWorked();
    } catch {
      // Storage refused (private mode): this tab still knows through liveToken.
    }
  }
  return json ?? { success: true };
}

/**
 * An answer with no code (not from our API: a proxy's 502/504 page, a gateway timeout): its status
 * read as the table's code for it, so a proxy between the app and the server that says 'bad
 * gateway' is an outage too.
 */
function codeOfStatus(status: number): ErrorCode {
  if (status === 502 || status === 503 || status === 504) return 'UNAVAILABLE';
  if (status === 429) return 'RATE_LIMITED';
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  return status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
}

/** The message to show for a failed call: the server's, else the screen's fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}
