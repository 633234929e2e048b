import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { registerDocs } from './plugins/docs';
import { registerErrorHandler } from './plugins/error-handler';
import { registerMaintenance } from './plugins/maintenance';
import { registerMetrics } from './plugins/metrics';
import { authPlugin } from './plugins/auth';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurity } from './plugins/security';
import { registerWeb } from './plugins/web';
import { modules } from './modules';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type App = FastifyInstance;

export interface BuildAppOptions {
  ctx: AppContext;
  /** pino options or false; tests pass false */
  logger?: boolean | object;
  /** routes only some processes have (the CLI control endpoint) */
  extraRoutes?: FastifyPluginAsync[];
}

/** Builds the Fastify instance from plugins and modules; does not listen. */
export async function buildApp({ ctx, logger, extraRoutes = [] }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: ctx.config.logLevel },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: true,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', ctx);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  registerErrorHandler(app);
  registerMetrics(app);
  await registerSecurity(app);
  await registerRateLimit(app, ctx.config.redisUrl);
  await registerDocs(app);
  await app.register(authPlugin);
  registerMaintenance(app);

  for (const mod of [...modules, ...extraRoutes]) await app.register(mod, { prefix: '/api' });

  await registerWeb(app, ctx.config.webDist);
  return app;
}
