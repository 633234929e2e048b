import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { schemaState } from '../../db/migrate';
import { jobRunsOf, type JobRun } from '../../jobs/runs';
import { onePer } from '../../lib/one-per';
import type { RecordedFailure } from './failures';

export interface MailQueue {
  pending: number;
  /** age of the oldest pending mail in seconds, null when none is pending */
  oldestAgeSeconds: number | null;
}

/** Pending mails in `mail_outbox`; undefined while that table does not exist in this schema. */
export async function mailQueue(db: AppContext['db']): Promise<MailQueue | undefined> {
  const exists = await sql<{ t: string | null }>`select to_regclass('mail_outbox')::text as t`.execute(db);
  if (!exists.rows[0]?.t) return undefined;
  const r = await sql<{ pending: bigint | number | string; oldest: number | string | null }>`
    select count(*) as pending, extract(epoch from now() - min(created_at)) as oldest
    from mail_outbox where status = 'pending'`.execute(db);
  const row = r.rows[0];
  return { pending: Number(row?.pending ?? 0), oldestAgeSeconds: row?.oldest == null ? null : Math.floor(Number(row.oldest)) };
}

/** The scheduler in this process: whether it runs and each job's last tick. */
export function jobsState(ctx: AppContext): { enabled: boolean; last: Record<string, JobRun> } {
  return { enabled: ctx.config.jobsEnabled, last: Object.fromEntries(jobRunsOf(ctx).last) };
}

/** How long one schema check answers for health (a load balancer asks every few seconds). */
export const SCHEMA_CHECK_TTL_MS = 5_000;
const schemaChecks = onePer<AppContext, { at: number; result?: Promise<RecordedFailure | undefined> }>(() => ({ at: 0 }));

/**
 * The 'schema' failure health answers 503 for while the database lacks the schema this code needs
 * (its newest migration not applied: a database dropped and created again empty under the running
 * server answers `select 1` all the same); undefined when the schema is current or the question
 * could not be asked (the database check reports that). One check per SCHEMA_CHECK_TTL_MS.
 */
export function schemaFailure(ctx: AppContext, now = Date.now()): Promise<RecordedFailure | undefined> {
  const cache = schemaChecks(ctx);
  if (cache.result && now >= cache.at && now - cache.at < SCHEMA_CHECK_TTL_MS) return cache.result;
  cache.at = now;
  cache.result = schemaState(ctx.db).then(
    (state) => (state === 'current' ? undefined : { reason: 'schema' as const, code: state, at: new Date(now).toISOString() }),
    () => undefined,
  );
  return cache.result;
}
