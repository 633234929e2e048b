import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { jobsState, mailQueue } from './checks';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { schema: { tags: ['health'] } }, async (_req, reply) => {
    const jobs = jobsState(app.ctx);
    try {
      await sql`select 1`.execute(app.ctx.db);
    } catch {
      return reply.status(503).send({ success: false, message: 'Database unavailable', data: { db: 'down', jobs } });
    }
    // The queue is informative: a failure to read it does not make the server unhealthy.
    const mail = await mailQueue(app.ctx.db).catch(() => 'unknown' as const);
    return ok({ db: 'ok', jobs, ...(mail ? { mail } : {}) });
  });
};
export default healthRoutes;
