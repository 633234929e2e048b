import { storage } from './storage';

/**
 * The first API read of a signed-in screen, started by the entry script (main.tsx) while the
 * rest of the app's code downloads, instead of after the chunks of the router, the providers and
 * the page (issue 32: on a slow network that waterfall came before the first byte of data). The
 * request goes through api-client's `request()` like any other: it takes the early response for
 * the same GET, so the answer is handled (401, 503, errors) in the one place it always is.
 */
const FIRST_READ: Readonly<Record<string, string>> = {
  '/dashboard': '/api/user/get-info',
  '/wallet': '/api/user/wallet',
};

/** An early answer older than this is not handed out: the screen asks again instead of showing it. */
const FRESH_MS = 30_000;

const started = new Map<string, { token: string; at: number; response: Promise<Response> }>();

/** Starts the first read of `pathname`'s screen when a signed-in user (not an admin) opens it. */
export function startEarlyRequest(pathname: string): void {
  const path = FIRST_READ[pathname.replace(/\/+$/, '')];
  const token = storage.getToken();
  if (!path || !token || storage.isAdmin()) return;
  const response = fetch(path, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  // A network failure is the taker's to report; no unhandled rejection when nothing takes it.
  response.catch(() => undefined);
  started.set(path, { token, at: performance.now(), response });
}

/** The early response to a GET of `path` sent with `token`: once, and only while fresh. */
export function takeEarlyResponse(path: string, token: string | null): Promise<Response> | null {
  const early = started.get(path);
  if (!early) return null;
  started.delete(path);
  return early.token === token && performance.now() - early.at <= FRESH_MS ? early.response : null;
}

/** The API paths started early, for the test that holds them to the contracts. */
export const EARLY_READ_PATHS = Object.values(FIRST_READ);
