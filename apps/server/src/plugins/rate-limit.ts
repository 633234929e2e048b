import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Rate limits are per route (config.rateLimit on the route). With REDIS_URL the counters live in
 * Redis, so several server processes share one budget; otherwise in this process's memory.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: false }) : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'usdt-rl:' } : {}),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      success: false,
      message: 'Too many requests, please try again later.',
      retryAfter: ctx.after,
    }),
  });
}

/**
 * The limit of a money route (withdraw, transfer, stake, deposit create): per account, whatever
 * the session or IP, so a stolen session cannot fire bursts (issue 29). Its check runs after the
 * route's authentication hook (@fastify/rate-limit appends its hook to the route's own), so the
 * account is known; the answer is the per-IP one (429 'Too many requests, please try again later.').
 */
export function perAccountLimit(app: FastifyInstance): FastifyContextConfig {
  return {
    rateLimit: {
      max: app.ctx.config.rateLimitMoneyPerMin,
      timeWindow: '1 minute',
      keyGenerator: (req) => `money:${String(req.user?.id ?? req.ip)}`,
    },
  };
}
