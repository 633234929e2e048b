import type { FastifyInstance } from 'fastify';
import { getSettings } from '../modules/settings/service';

const OPEN_DURING_MAINTENANCE = [
  /^\/api\/admin(\/|$)/,
  /^\/api\/health$/,
  /^\/api\/auth\/(login|logout)$/,
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
  let cached: { on: boolean; at: number } = { on: false, at: 0 };
  const openByRoute = new Map<string, boolean>();
  const isOpen = (url: string) => {
    let open = openByRoute.get(url);
    if (open === undefined) {
      open = !url.startsWith('/api/') || OPEN_DURING_MAINTENANCE.some((re) => re.test(url));
      openByRoute.set(url, open);
    }
    return open;
  };
  const refresh = async () => {
    try {
      cached = { on: (await getSettings(app.ctx.db)).maintenance_mode, at: Date.now() };
    } catch {
      cached = { on: false, at: Date.now() };
    }
  };
  // Callback-style: while the flag is fresh (all but one request per 2 s) the hook costs no
  // promise and no query.
  app.addHook('onRequest', (request, reply, done) => {
    // The route that matched, never the raw URL: '/%61pi/…' or an absolute-form request line
    // reach the same route and must meet the same rule (server design, section 9).
    const url = request.routeOptions.url;
    if (!url || isOpen(url)) return done();
    const decide = () => {
      if (cached.on) reply.status(503).send({ success: false, message: 'Server is under maintenance' });
      else done();
    };
    if (Date.now() - cached.at > CACHE_MS) void refresh().then(decide);
    else decide();
  });
  app.decorate('resetMaintenanceCache', () => {
    cached = { on: false, at: 0 };
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    resetMaintenanceCache: () => void;
  }
}
