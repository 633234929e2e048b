import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { jobRunsOf, type JobRun } from '../../jobs/runs';

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
