import { sql, type ColumnType, type Generated } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor, Id, Timestamp } from '../../db/types';
import { renderMail, type MailKind, type MailPayload } from './templates';

export interface MailOutboxTable {
  id: Id;
  user_id: bigint | null;
  to_email: string;
  kind: string;
  payload: MailPayload;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  last_error: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  sent_at: Timestamp | null;
}
declare module '../../db/types' {
  interface Database {
    mail_outbox: MailOutboxTable;
  }
}

const MAX_ATTEMPTS = 8;
/** A claimed mail is leased this long: a process that dies mid-send leaves it to another after that. */
const LEASE_SECONDS = 120;
const BATCH = 20;

/**
 * Queues a mail to a user in the caller's transaction (server design, section 9): the mail exists
 * exactly when the event it reports committed, a mail server that is down never rolls money back,
 * and a crash never loses it. Sent by drainOutbox (soon after, and by the job).
 */
export async function queueMail(db: Executor, userId: bigint, kind: MailKind, payload: MailPayload = {}): Promise<void> {
  await sql`insert into mail_outbox (user_id, to_email, kind, payload)
    select id, email, ${kind}, ${JSON.stringify(payload)}::jsonb from users where id = ${userId}`.execute(db);
  wake();
}

/**
 * Sends what is due: claims a batch by leasing it (attempts + 1, next try after the lease), sends
 * each, then marks it sent or schedules a retry with back-off; after 8 tries it is 'failed'.
 * Safe in several processes at once (SKIP LOCKED) and after a crash (the lease runs out).
 */
export async function drainOutbox(ctx: AppContext): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    const claimed = await sql<{ id: bigint; to_email: string; kind: MailKind; payload: MailPayload; attempts: number; name: string | null }>`
      update mail_outbox m set attempts = m.attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
      from (select id from mail_outbox where status = 'pending' and next_attempt_at <= now() order by id limit ${BATCH} for update skip locked) due
      where m.id = due.id
      returning m.id, m.to_email, m.kind, m.payload, m.attempts, (select name from users u where u.id = m.user_id) as name`.execute(ctx.db);
    if (!claimed.rows.length) return { sent, failed };
    for (const m of claimed.rows) {
      try {
        const mail = renderMail(m.kind, m.payload, m.name ?? 'there', ctx.config.publicUrl);
        await ctx.mailer.send({ to: m.to_email, ...mail });
        await ctx.db.updateTable('mail_outbox').set({ status: 'sent', sent_at: new Date(), last_error: null }).where('id', '=', m.id).execute();
        sent++;
      } catch (err) {
        const giveUp = m.attempts >= MAX_ATTEMPTS;
        const retryIn = Math.min(3600, 15 * 2 ** m.attempts);
        await ctx.db
          .updateTable('mail_outbox')
          .set({
            status: giveUp ? 'failed' : 'pending',
            last_error: err instanceof Error ? err.message.slice(0, 500) : String(err),
            next_attempt_at: new Date(Date.now() + retryIn * 1000),
          })
          .where('id', '=', m.id)
          .execute();
        if (giveUp) failed++;
      }
    }
  }
}

/**
 * In-process prompt delivery: a queued mail wakes the drainer of every running context shortly
 * after (the queueing transaction has committed by then, or the job picks it up later).
 */
const drainers = new Set<() => void>();
function wake(): void {
  for (const d of drainers) d();
}

/**
 * Starts prompt delivery for a context; returns a stop function (call it before closing the db).
 * A wake keeps it polling every 250 ms for 5 s, which covers the queueing transaction's commit.
 */
export function startOutboxDrainer(ctx: AppContext, onError: (err: unknown) => void): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let hotUntil = 0;
  let stopped = false;
  const tick = () => {
    timer = undefined;
    running = running.then(async () => {
      if (stopped) return;
      await drainOutbox(ctx).catch(onError);
      if (!stopped && Date.now() < hotUntil) arm();
    });
  };
  const arm = () => {
    if (stopped || timer) return;
    timer = setTimeout(tick, 250);
    timer.unref();
  };
  const wakeMe = () => {
    hotUntil = Date.now() + 5_000;
    arm();
  };
  drainers.add(wakeMe);
  return async () => {
    stopped = true;
    drainers.delete(wakeMe);
    if (timer) clearTimeout(timer);
    await running;
  };
}

/** Figures for /api/health and metrics: what waits, and since when. */
export async function outboxBacklog(db: Executor): Promise<{ pending: number; failed: number; oldest_pending_seconds: number }> {
  const r = await sql<{ pending: string; failed: string; oldest: string | null }>`
    select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'failed') as failed,
      extract(epoch from now() - min(created_at) filter (where status = 'pending'))::bigint as oldest
    from mail_outbox where status <> 'sent'`.execute(db);
  const row = r.rows[0];
  return { pending: Number(row?.pending ?? 0), failed: Number(row?.failed ?? 0), oldest_pending_seconds: Number(row?.oldest ?? 0) };
}

/** For the daily clean-up job: sent mail older than 90 days (server design, section 9). */
export async function purgeExpired(ctx: Pick<AppContext, 'db'>): Promise<Record<string, number>> {
  const r = await sql`delete from mail_outbox where status = 'sent' and sent_at < now() - interval '90 days'`.execute(ctx.db);
  return { sent_mail: Number(r.numAffectedRows ?? 0n) };
}
