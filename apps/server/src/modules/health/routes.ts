import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { tags: ['health'] } }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(app.ctx.db);
      return ok({ db: 'ok' });
    } catch {
      return reply.status(503).send({ success: false, message: 'Database unavailable', data: { db: 'down' } });
    }
  });
};
export default healthRoutes;
