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
  app.addHook('onRequest', async (request, reply) => {
    // The route that matched, never the raw URL: '/%61pi/…' or an absolute-form request line
    // reach the same route and must meet the same rule (server design, section 9).
    const url = request.routeOptions.url;
    if (!url || !url.startsWith('/api/') || OPEN_DURING_MAINTENANCE.some((re) => re.test(url))) return;
    if (Date.now() - cached.at > CACHE_MS) {
      try {
        cached = { on: (await getSettings(app.ctx.db)).maintenance_mode, at: Date.now() };
      } catch {
        cached = { on: false, at: Date.now() };
      }
    }
    if (cached.on) return reply.status(503).send({ success: false, message: 'Server is under maintenance' });
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
