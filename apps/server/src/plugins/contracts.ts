import type { FastifyInstance, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** every /api route registered, with its contract (the route ↔ contract test reads it) */
    apiRoutes: RouteOptions[];
  }
}

/** Refuses, at startup, any /api route not registered from a contract (lib/route.ts). */
export function registerContractGuard(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith('/api/') || r.url.startsWith('/api/docs') || r.method === 'HEAD') return;
    if (!r.config?.contract) throw new Error(`${String(r.method)} ${r.url} has no contract: register it with route() from a contract in @app/core/contracts`);
    routes.push(r);
  });
}
