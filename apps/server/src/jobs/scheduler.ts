import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { jobRunsOf, type JobOutcome } from './runs';

/**
 * A name, an interval and an idempotent handler. The runner knows no job: the list is composed in
 * server.ts (the composition root), so this file imports no module and no module's job can form an
 * import cycle through it.
 */
export interface Job {
  name: string;
  intervalMs: number;
  /**
   * `log` is the app's logger: a job's notable events (a payout completed, a node lying) are log
   * lines too. `stopping` turns true when the runner stops: a job working through a backlog ends
   * after the item in hand, so a shutdown waits for one item, not for the backlog.
   */
  run: (ctx: AppContext, log?: FastifyBaseLogger, stopping?: () => boolean) => Promise<unknown>;
}

export interface JobsHandle {
  stop(): Promise<void>;
}

/** A stable 32-bit id per job name for its advisory lock. */
function lockId(name: string): number {
  let h = 0;
  for (const c of name) h = (Math.imul(31, h) + c.charCodeAt(0)) | 0;
  return h;
}

/**
 * Runs each job on its interval. On PostgreSQL a run first takes a session advisory lock named
 * after the job, so across several server processes one runs it at a time (the others skip
 * that tick). Every job is idempotent, so a skipped or repeated tick is harmless.
 */
export function startJobs(ctx: AppContext, log: FastifyBaseLogger, jobs: readonly Job[], opts: { firstDelayMs?: number } = {}): JobsHandle {
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  // A run that outlasts its interval (a long catch-up, a slow gateway) is not joined by the next
  // tick of the same job in this process: that tick is skipped.
  const busy = new Set<string>();
  let stopped = false;
  const isStopping = () => stopped;

  const tick = async (job: Job) => {
    if (stopped || busy.has(job.name)) return;
    busy.add(job.name);
    const started = new Date();
    let outcome: JobOutcome = 'ok';
    try {
      if (ctx.dbKind === 'postgres') {
        await ctx.db.connection().execute(async (conn) => {
          const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${lockId(job.name)}) as ok`.execute(conn);
          if (!got.rows[0]?.ok) {
            outcome = 'skipped';
            return;
          }
          try {
            await job.run(ctx, log, isStopping);
          } finally {
            await sql`select pg_advisory_unlock(${lockId(job.name)})`.execute(conn);
          }
        });
      } else {
        await job.run(ctx, log, isStopping);
      }
    } catch (err) {
      outcome = 'failed';
      log.error({ err, job: job.name }, 'job failed');
    } finally {
      busy.delete(job.name);
      jobRunsOf(ctx).record(job.name, { at: started.toISOString(), outcome, durationMs: Date.now() - started.getTime() });
    }
  };

  for (const job of jobs) {
    const fire = () => {
      const p = tick(job).finally(() => running.delete(p));
      running.add(p);
    };
    // First tick soon after start (catch-up after downtime), then on the interval.
    timers.push(setTimeout(fire, opts.firstDelayMs ?? 2_000));
    timers.push(setInterval(fire, job.intervalMs));
  }
  log.info({ jobs: jobs.map((j) => j.name) }, 'jobs runner started');
  return {
    stop: async () => {
      stopped = true;
      timers.forEach((t) => clearTimeout(t));
      await Promise.allSettled([...running]);
    },
  };
}
