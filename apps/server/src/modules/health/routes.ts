import { health } from '@app/core/contracts';
import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { UNAVAILABLE_MESSAGE } from '../../lib/db-errors';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { custodyStatus } from '../custody/service';
import { jobsState, mailQueue } from './checks';

const HEALTH_TIMEOUT_MS = 3_000;

const num = (v: bigint | null) => (v === null ? null : Number(v));
async function chainHealth(ctx: Parameters<typeof custodyStatus>[0]) {
  return (await custodyStatus(ctx)).map((s) => ({
    network: s.network,
    head: num(s.head),
    scanned_to: num(s.scannedTo),
    final_height: num(s.finalHeight),
    lag: num(s.lag),
    halted: s.halted,
    halted_reason: s.haltedReason,
  }));
}

const healthRoutes: FastifyPluginAsync = async (app) => {
  route(app, health.check, async (_req, reply) => {
    const jobs = jobsState(app.ctx);
    // Bounded: a database that hangs (rather than refuses) must not hang the health check too.
    const db = await Promise.race([
      sql`select 1`.execute(app.ctx.db).then(
        () => 'ok' as const,
        () => 'down' as const,
      ),
      new Promise<'down'>((r) => setTimeout(() => r('down'), HEALTH_TIMEOUT_MS).unref()),
    ]);
    if (db === 'down') return reply.status(503).send({ success: false, message: UNAVAILABLE_MESSAGE, data: { db, jobs } });
    // The queue is informative: a failure to read it does not make the server unhealthy.
    const mail = await mailQueue(app.ctx.db).catch(() => 'unknown' as const);
    const chain = app.ctx.config.payments.gateway === 'chain' ? await chainHealth(app.ctx).catch(() => 'unknown' as const) : undefined;
    return ok({ db, jobs, ...(mail ? { mail } : {}), ...(chain ? { chain } : {}) });
  });
};
export default healthRoutes;
