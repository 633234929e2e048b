import type { FastifyInstance } from 'fastify';
import { getSettings } from '../modules/settings/service';
import { sendFailure } from '../lib/errors';

/** What a maintenance answer's Retry-After says: the maintenance page checks again about this often. */
const MAINTENANCE_RETRY_AFTER_S = 30;

const OPEN_DURING_MAINTENANCE = [
  /^\/api\/admin(\/|$)/,
  /^\/api\/health$/,
  // Every step of a sign-in (password, mailed code, second factor): an admin must be able to get
  // in to switch maintenance off (server design, section 9). A user who signs in meets 503 next.
  /^\/api\/auth\/(login|login\/2fa|verify-otp|resend-otp|logout)$/,
  /^\/api\/internal\//,
  /^\/api\/docs/,
  /^\/api\/payments\/ipn$/,
];
const CACHE_MS = 2_000;

/**
 * The admin's maintenance switch: while it is on, the user API answers 503 (the browser goes to
 * /maintenance) and the admin API, sign-in and the payment gateway's callbacks keep working.
 * The flag is re-read at most every 2 s per process.
 */
export function registerMaintenance(app: FastifyInstance): void {
  const flag = maintenanceFlag(async () => (await getSettings(app.ctx.db)).maintenance_mode);
  const openByRoute = new Map<string, boolean>();
  const isOpen = (url: string) => {
    let open = openByRoute.get(url);
    if (open === undefined) {
      open = !url.startsWith('/api/') || OPEN_DURING_MAINTENANCE.some((re) => re.test(url));
      openByRoute.set(url, open);
    }
    return open;
  };
  // Callback-style: while the flag is fresh (all but one request per 2 s) the hook costs no
  // promise and no query.
  app.addHook('onRequest', (request, reply, done) => {
    // The route that matched, never the raw URL: '/%61pi/…' or an absolute-form request line
    // reach the same route and must meet the same rule (server design, section 9).
    const url = request.routeOptions.url;
    if (!url || isOpen(url)) return done();
    flag.check((on) => {
      if (on) sendFailure(reply, 'MAINTENANCE', { retryAfterSeconds: MAINTENANCE_RETRY_AFTER_S });
      else done();
    });
  });
  app.decorate('resetMaintenanceCache', () => flag.reset());
}

/**
 * The maintenance flag, read at most once per CACHE_MS. The requests that find it stale share
 * one read: before, each request arriving while the read was in flight started its own (64
 * settings queries at once under 64 connections, every 2 s). A failed read counts as off (the
 * API stays up when the settings row cannot be read) until the next read. After reset() (the
 * admin switched it), a read started before the reset can neither answer a waiting request nor
 * fill the cache: they wait for a read that started after it.
 */
export function maintenanceFlag(read: () => Promise<boolean>, now: () => number = Date.now) {
  let cached = { on: false, at: -Infinity };
  let inFlight: Promise<void> | undefined;
  let generation = 0;
  const refresh = () => {
    if (!inFlight) {
      const started = generation;
      inFlight = read()
        .catch(() => false)
        .then((on) => {
          if (started !== generation) return;
          cached = { on, at: now() };
          inFlight = undefined;
        });
    }
    return inFlight;
  };
  const check = (answer: (on: boolean) => void): void => {
    if (now() - cached.at <= CACHE_MS) answer(cached.on);
    else void refresh().then(() => check(answer));
  };
  const reset = () => {
    generation++;
    cached = { on: false, at: -Infinity };
    inFlight = undefined;
  };
  return { check, reset };
}

declare module 'fastify' {
  interface FastifyInstance {
    resetMaintenanceCache: () => void;
  }
}
