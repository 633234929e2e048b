import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route spends the account's money budget (perAccountLimit) */
    moneyLimit?: boolean;
  }
}

const TOO_MANY_REQUESTS = 'Too many requests, please try again later.';

/**
 * Rate limits are per route (config.rateLimit on the route), except the money budget, which is one
 * per account for every money route (perAccountLimit). With REDIS_URL the counters live in Redis
 * (keys under RATE_LIMIT_REDIS_PREFIX), so several server processes share one budget; otherwise in
 * this process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: app.ctx.config.rateLimitRedisPrefix } : {}),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      success: false,
      message: TOO_MANY_REQUESTS,
      retryAfter: ctx.after,
    }),
  });
  registerMoneyLimit(app);
}

/**
 * The money budget (attack report: it was one budget per route, so N transfers, N stakes and N
 * withdrawals all passed in a minute). One limiter, so one counter per account: one LRU entry in
 * this process's memory, or one Redis key (one round trip, an atomic INCR script) shared by every
 * process. Its check is appended to the route's own onRequest hooks, after authentication (which on
 * fund-transfer may answer from the session cache): every authenticated request counts, before its
 * body is parsed or validated.
 */
function registerMoneyLimit(app: FastifyInstance): void {
  const max = app.ctx.config.rateLimitMoneyPerMin;
  const limiter = app.createRateLimit({
    max,
    timeWindow: '1 minute',
    keyGenerator: (req) => `money:${String(req.user?.id ?? req.ip)}`,
  });
  const check = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const r = await limiter(req);
    if (r.isAllowed) return;
    void reply.header('x-ratelimit-limit', max);
    void reply.header('x-ratelimit-remaining', r.remaining);
    void reply.header('x-ratelimit-reset', r.ttlInSeconds);
    if (!r.isExceeded) return;
    void reply.header('retry-after', r.ttlInSeconds);
    throw new AppError('RATE_LIMITED', TOO_MANY_REQUESTS);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.moneyLimit) return;
    const own = route.onRequest;
    route.onRequest = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), check];
  });
}

/**
 * The limit of a money route (withdraw, transfer, stake): one budget per account, whatever the
 * route, the session, the IP or the process, so a stolen session cannot fire bursts (issue 29, and
 * the attack report's finding on the money limit). Checked after the route's authentication hook,
 * so the account is known; the answer is the per-IP one (429 'Too many requests, please try again
 * later.' with Retry-After). (`_app` is unused: the budget's limit and store are the app's, set up
 * by registerRateLimit; the argument keeps the routes' calls as they were.)
 */
export function perAccountLimit(_app: FastifyInstance): FastifyContextConfig {
  return { moneyLimit: true };
}
