import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { UNAVAILABLE_MESSAGE } from '../../lib/db-errors';
import { ok } from '../../lib/reply';

const HEALTH_TIMEOUT_MS = 3_000;

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { tags: ['health'] } }, async (_req, reply) => {
    // Bounded: a database that hangs (rather than refuses) must not hang the health check too.
    const db = await Promise.race([
      sql`select 1`.execute(app.ctx.db).then(
        () => 'ok' as const,
        () => 'down' as const,
      ),
      new Promise<'down'>((r) => setTimeout(() => r('down'), HEALTH_TIMEOUT_MS).unref()),
    ]);
    if (db === 'ok') return ok({ db });
    return reply.status(503).send({ success: false, message: UNAVAILABLE_MESSAGE, data: { db } });
  });
};
export default healthRoutes;
