import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { contractSerializer } from './lib/response-serializer';
import { registerContractGuard } from './plugins/contracts';
import { registerDocs } from './plugins/docs';
import { answerClientError, registerErrorHandler } from './plugins/error-handler';
import { registerJsonBody } from './plugins/json-body';
import { registerMaintenance } from './plugins/maintenance';
import { registerMetrics } from './plugins/metrics';
import { authPlugin } from './plugins/auth';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurity } from './plugins/security';
import { registerWeb } from './plugins/web';
import { registerInputGuard } from './plugins/input-guard';
import { OneLinePerRequest, serializeRequest } from './plugins/log-redact';
import { startOutboxDrainer } from './modules/mail/outbox';
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
  /** check every answer against its contract and fail the request when it does not match (tests) */
  checkResponses?: boolean;
}

/** TRUST_PROXY as a hop count: believe that many proxies nearest to us (proxy-addr's rule). */
const hops = (n: number) => (_addr: string, i: number) => i < n;

/** Builds the Fastify instance from plugins and modules; does not listen. */
export async function buildApp({ ctx, logger, extraRoutes = [], checkResponses = false }: BuildAppOptions): Promise<FastifyInstance> {
  const base = logger ?? { level: ctx.config.logLevel };
  const app = Fastify({
    // Tokens and codes travel in some query strings (/signup?token=…): the request serializer redacts them.
    logger: base === false ? false : { ...(base === true ? {} : base), serializers: { req: serializeRequest } },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    // No forwarded header is believed unless TRUST_PROXY names the proxies (server design, section 9).
    trustProxy: typeof ctx.config.trustProxy === 'number' ? hops(ctx.config.trustProxy) : ctx.config.trustProxy,
    logController: new OneLinePerRequest(),
    bodyLimit: 64 * 1024,
    clientErrorHandler: answerClientError,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(contractSerializer(checkResponses));
  app.decorate('ctx', ctx);

  registerErrorHandler(app);
  registerJsonBody(app);
  registerContractGuard(app);
  registerInputGuard(app);
  registerMetrics(app);
  const stopOutbox = startOutboxDrainer(ctx, (err) => app.log.error({ err }, 'mail outbox drain failed'));
  app.addHook('onClose', async () => stopOutbox());
  await registerSecurity(app);
  await registerRateLimit(app, ctx.config.redisUrl);
  await registerDocs(app);
  await app.register(authPlugin);
  registerMaintenance(app);

  for (const mod of [...modules, ...extraRoutes]) await app.register(mod, { prefix: '/api' });

  await registerWeb(app, ctx.config.webDist);
  return app;
}
