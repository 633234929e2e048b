import { timingSafeEqual } from 'node:crypto';
import { health } from '@app/core/contracts';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { classifyDbError, UNAVAILABLE_MESSAGE } from '../../lib/db-errors';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { bearerToken } from '../../plugins/auth';
import { custodyStatus } from '../custody/service';
import { jobsState, mailQueue, schemaFailure } from './checks';
import { dataDirSpace, failuresOf } from './failures';

const HEALTH_TIMEOUT_MS = 3_000;
/** What a 503 from health tells a client (a load balancer retries sooner anyway). */
const HEALTH_RETRY_AFTER_SECONDS = 5;

const num = (v: bigint | null) => (v === null ? null : Number(v));
/** The watchers as the database has them (never a node: a hung one must not hang health). */
async function chainHealth(ctx: Parameters<typeof custodyStatus>[0]) {
  return (await custodyStatus(ctx)).map((s) => ({
    network: s.network,
    state: s.state,
    reason: s.reason,
    head: num(s.head),
    head_age_s: s.headAgeS,
    answered_at: s.answeredAt?.toISOString() ?? null,
    scanned_to: num(s.scannedTo),
    final_height: num(s.finalHeight),
    lag: num(s.lag),
    halted: s.halted,
    halted_reason: s.haltedReason,
  }));
}

/**
 * Whether the caller may see the details: the bearer token is METRICS_TOKEN (compared in constant
 * time, as /metrics does) or the session of an admin who is not blocked. Bounded like the
 * database check; a database that is down shows the details only to METRICS_TOKEN.
 */
async function seesDetails(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const token = bearerToken(req);
  if (!token || token.length > 200) return false;
  const metrics = app.ctx.config.metricsToken;
  if (metrics) {
    const given = Buffer.from(token);
    const want = Buffer.from(metrics);
    if (given.length === want.length && timingSafeEqual(given, want)) return true;
  }
  const admin = app.authenticate(req, reply).then(
    () => req.user.is_admin,
    () => false,
  );
  return Promise.race([admin, new Promise<false>((r) => setTimeout(() => r(false), HEALTH_TIMEOUT_MS).unref())]);
}

/**
 * 200 only when the database answers, DATA_DIR (PGlite) has more free space than the floor, no
 * full-disk or out-of-resources failure was answered within the hold time (a full disk does not stop
 * `select 1`, so the failures the error handler recorded are what tells it), and no chain node is
 * stale (silent for longer than CHAIN_STALE_AFTER_S) or disputed (its endpoints disagree on a
 * transfer): `degraded`, the reason in the details. Else 503, saying which.
 * The answer is `status` only (ok, or down / degraded with the 503), the same for everyone; the
 * details (jobs, mail queue, disk, chain heads, the failure) only for METRICS_TOKEN or an admin
 * ("the small doors", finding 4): they told anyone what runs, what fails and how full the disk is.
 */
const healthRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  route(app, health.check, async (req, reply) => {
    const details = seesDetails(app, req, reply);
    const jobs = jobsState(ctx);
    const failures = failuresOf(ctx);
    // Bounded: a database that hangs (rather than refuses) must not hang the health check too.
    const db = await Promise.race([
      sql`select 1`.execute(ctx.db).then(
        () => 'ok' as const,
        (err: unknown) => {
          const u = classifyDbError(err);
          if (u) failures.record(u);
          return 'down' as const;
        },
      ),
      new Promise<'down'>((r) => setTimeout(() => r('down'), HEALTH_TIMEOUT_MS).unref()),
    ]);
    const disk = await dataDirSpace(ctx);
    const lowDisk = disk !== undefined && disk.free_bytes < disk.floor_bytes;
    // A database dropped and created again empty answers `select 1` too: its schema is checked (issue 47).
    const schema = db === 'ok' ? await schemaFailure(ctx) : undefined;
    const failure = schema ?? failures.recentBlind(ctx.config.health.failureHoldMs);
    // A chain node silent for CHAIN_STALE_AFTER_S: deposits on it are not seen, whatever its last head said.
    const chain = db === 'ok' && ctx.config.payments.gateway === 'chain' ? await chainHealth(ctx).catch(() => 'unknown' as const) : undefined;
    // …or its endpoints disagree on a transfer (held until an admin dismisses it): a node may be lying.
    const stale = Array.isArray(chain) && chain.some((n) => n.state === 'stale' || n.state === 'disputed');
    if (db === 'down' || lowDisk || failure || stale) {
      const status = db === 'down' || schema ? ('down' as const) : ('degraded' as const);
      return reply
        .status(503)
        .header('retry-after', String(HEALTH_RETRY_AFTER_SECONDS))
        .send({
          success: false,
          code: 'UNAVAILABLE',
          message: UNAVAILABLE_MESSAGE,
          data: (await details)
            ? { status, db, jobs, ...(disk ? { disk } : {}), ...(failure ? { failure } : {}), ...(Array.isArray(chain) ? { chain } : {}) }
            : { status },
        });
    }
    if (!(await details)) return ok({ status: 'ok' as const });
    // The queue is informative: a failure to read it does not make the server unhealthy.
    const mail = await mailQueue(ctx.db).catch(() => 'unknown' as const);
    return ok({ status: 'ok' as const, db, jobs, ...(mail ? { mail } : {}), ...(disk ? { disk } : {}), ...(chain ? { chain } : {}) });
  });
};
export default healthRoutes;
