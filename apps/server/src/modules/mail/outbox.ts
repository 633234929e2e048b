import { sql, type ColumnType, type Generated } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor, Id, Timestamp } from '../../db/types';
import { messageIdOf } from './mailer';
import { renderMail, type MailKind, type MailPayload } from './templates';

export interface MailOutboxTable {
  id: Id;
  user_id: bigint | null;
  to_email: string;
  kind: string;
  payload: MailPayload;
  status: Generated<'pending' | 'sent' | 'failed' | 'expired'>;
  /** the row's Message-ID token (migration 0150): the same on every try */
  message_token: Generated<string>;
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
/**
 * A claimed mail is leased for about twice the SMTP timeout (config SMTP_TIMEOUT_SECONDS; one send
 * is bounded by it, lib mailer.ts): long enough that a live sender always finishes or gives up
 * first, short enough that a mail whose sender died mid-send goes out again soon. One row is
 * claimed at a time, so the lease covers exactly one send.
 */
export const leaseSecondsOf = (smtpTimeoutMs: number): number => Math.ceil((2 * smtpTimeoutMs) / 1000);

/**
 * Kinds whose payload their module completes at send time (prepareMailsOf): a code kept sealed in
 * the row, and a check that it is still worth sending. Such a row is never sent unprepared.
 */
const PREPARED_KINDS: ReadonlySet<MailKind> = new Set(['otp_verify', 'otp_login', 'otp_reset']);
/** The payload to render, or null when the mail is no longer wanted (it becomes 'expired', unsent). */
export type MailPreparer = (ctx: AppContext, mail: { userId: bigint | null; payload: MailPayload }) => Promise<MailPayload | null>;
const preparers = new Map<MailKind, MailPreparer>();

/** Registers the module that completes the payloads of these kinds (the auth module, for code mails). */
export function prepareMailsOf(kinds: MailKind[], preparer: MailPreparer): void {
  for (const k of kinds) preparers.set(k, preparer);
}

/**
 * Queues a mail to a user in the caller's transaction (server design, section 9): the mail exists
 * exactly when the event it reports committed, a mail server that is down never rolls money back,
 * and a crash never loses it. Sent by drainOutbox (soon after, and by the job), or at once by
 * deliverNow. Returns the row's id.
 */
export async function queueMail(
  db: Executor,
  userId: bigint,
  kind: MailKind,
  payload: MailPayload = {},
  opts: { wake?: boolean; delayMs?: number } = {},
): Promise<bigint> {
  return (await queueMails(db, [{ userId, kind, payload }], opts))[0]!;
}

/** Queues several mails in one statement (a batch of credits), as queueMail does each. Returns the rows' ids in order. */
export async function queueMails(
  db: Executor,
  mails: { userId: bigint; kind: MailKind; payload?: MailPayload }[],
  opts: { wake?: boolean; delayMs?: number } = {},
): Promise<bigint[]> {
  if (!mails.length) return [];
  // `delayMs`: not sent before then (a code mail that waits for the end of the resend wait).
  const r = await sql<{ id: bigint }>`insert into mail_outbox (user_id, to_email, kind, payload, next_attempt_at)
    select u.id, u.email, x.kind, x.payload::jsonb, now() + make_interval(secs => ${(opts.delayMs ?? 0) / 1000})
    from unnest(${mails.map((m) => m.userId.toString())}::bigint[], ${mails.map((m) => m.kind)}::text[], ${mails.map((m) => JSON.stringify(m.payload ?? {}))}::text[])
      with ordinality x(user_id, kind, payload, ord)
    join users u on u.id = x.user_id
    order by x.ord
    returning id`.execute(db);
  if (opts.wake !== false) wake();
  if (r.rows.length !== mails.length) throw new Error(`no user ${mails.map((m) => m.userId).join(', ')} to mail`);
  return r.rows.map((row) => row.id);
}

interface Claimed {
  id: bigint;
  user_id: bigint | null;
  to_email: string;
  kind: MailKind;
  payload: MailPayload;
  attempts: number;
  message_token: string;
  name: string | null;
}

/** Leases one due row (the given one, or the oldest due), or none. */
async function claimOne(ctx: AppContext, only?: bigint): Promise<Claimed | undefined> {
  const lease = leaseSecondsOf(ctx.config.smtpTimeoutMs);
  const r = await sql<Claimed>`
    update mail_outbox m set attempts = m.attempts + 1, next_attempt_at = now() + make_interval(secs => ${lease})
    where m.id = (select id from mail_outbox where status = 'pending' and next_attempt_at <= now() ${only === undefined ? sql`` : sql`and id = ${only}`}
                  order by id limit 1 for update skip locked)
    returning m.id, m.user_id, m.to_email, m.kind, m.payload, m.attempts, m.message_token::text as message_token,
      -- The greeting names the account only once its address is proven: a name typed at a sign-up
      -- nobody verified is anyone's text, and the mail goes to the real owner of the address (issue 29).
      (select u.name from users u where u.id = m.user_id and u.email_verified_at is not null) as name`.execute(ctx.db);
  return r.rows[0];
}

/** Sends one claimed row and records the outcome: sent, expired (no longer wanted), or a retry with back-off ('failed' after 8 tries). */
async function sendClaimed(ctx: AppContext, m: Claimed): Promise<'sent' | 'expired' | 'retry' | 'failed'> {
  try {
    let payload: MailPayload | null = m.payload;
    if (PREPARED_KINDS.has(m.kind)) {
      const prepare = preparers.get(m.kind);
      if (!prepare) throw new Error(`no preparer registered for ${m.kind} mails`);
      payload = await prepare(ctx, { userId: m.user_id, payload: m.payload });
    }
    if (payload === null) {
      // Nothing secret stays behind in a row that will not be sent.
      await sql`update mail_outbox set status = 'expired', payload = '{}'::jsonb where id = ${m.id}`.execute(ctx.db);
      return 'expired';
    }
    const mail = renderMail(m.kind, payload, m.name ?? 'there', ctx.config.publicUrl);
    await ctx.mailer.send({ to: m.to_email, ...mail, messageId: messageIdOf(m.message_token, ctx.config.mailFrom) });
    // A sent code mail keeps no sealed code behind either.
    await sql`update mail_outbox set status = 'sent', sent_at = now(), last_error = null,
      payload = case when ${PREPARED_KINDS.has(m.kind)} then '{}'::jsonb else payload end where id = ${m.id}`.execute(ctx.db);
    return 'sent';
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
    return giveUp ? 'failed' : 'retry';
  }
}

/**
 * Sends what is due, one leased row at a time (attempts + 1, next try after the lease), then marks
 * it sent or schedules a retry with back-off; after 8 tries it is 'failed'. Safe in several
 * processes at once (SKIP LOCKED) and after a crash (the lease runs out; the retry carries the
 * same Message-ID, so the receiver's client collapses the duplicate).
 */
export async function drainOutbox(ctx: AppContext, stopped: () => boolean = () => false): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    // A stop ends the drain after the mail in hand: the rest stays queued for the next drain (a
    // backlog of mails must not hold a shutdown; closing with 60 queued took 11 s).
    if (stopped()) return { sent, failed };
    const m = await claimOne(ctx);
    if (!m) return { sent, failed };
    const outcome = await sendClaimed(ctx, m);
    if (outcome === 'sent') sent++;
    if (outcome === 'failed') failed++;
  }
}

/**
 * Sends one queued row now, in the request that queued it (a code the user waits for). True when
 * the mail server took it; false when it failed (the row stays queued for the drainer's retries)
 * or another process is sending it right now.
 */
export async function deliverNow(ctx: AppContext, id: bigint): Promise<boolean> {
  const m = await claimOne(ctx, id);
  if (!m) {
    const row = await ctx.db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status === 'sent';
  }
  return (await sendClaimed(ctx, m)) === 'sent';
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
      await drainOutbox(ctx, () => stopped).catch(onError);
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
