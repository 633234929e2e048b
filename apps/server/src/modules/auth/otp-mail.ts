import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/types';
import { seal, unseal } from '../../lib/seal';
import '../users/table';
import { deliverNow, prepareMailsOf, queueMail } from '../mail/service';
import { isCodeLive, type OtpPurpose } from './otp';

const SUBJECT: Record<OtpPurpose, 'otp_verify' | 'otp_login' | 'otp_reset'> = { verify: 'otp_verify', login: 'otp_login', reset: 'otp_reset' };

/**
 * How long a request waits for the mail server to take a code before it answers `code_sent: false`
 * (issue 47: a server that hangs held a sign-up for the whole SMTP timeout). The send goes on after
 * the answer; it holds the row's outbox lease (twice the SMTP timeout, which bounds the send), so
 * the drainer never sends the row beside it: a late success is the one mail, a late failure is
 * retried by the outbox.
 */
export const CODE_MAIL_WAIT_MS = 2_000;

/**
 * Mails a code: queued in the outbox (sealed, so the row shows no code), then sent at once in this
 * request, since the user is waiting for it, for at most CODE_MAIL_WAIT_MS. True when the mail
 * server took it; false when it could not (down, refusing, too slow): the outbox then sends it as
 * soon as mail works again, while the code is still live, and never a dead one. Nothing here throws for a mail failure
 * (issue 30: a sign-up while the mail server is down). The greeting names the account only once
 * its address is proven (the outbox renders it so): a name typed at a sign-up nobody verified is
 * anyone's text (issue 29). The dev outbox has no inbox to read, so there the code goes on the
 * log line too (never with SMTP).
 */
export async function mailOtp(
  ctx: AppContext,
  log: FastifyBaseLogger,
  to: { id: bigint; email: string },
  otp: string,
  purpose: OtpPurpose,
  delayMs = 0,
): Promise<boolean> {
  const id = await queueMail(ctx.db, to.id, SUBJECT[purpose], { code_sealed: seal(ctx.secret, 'mail-code-v1', otp) }, { wake: false, delayMs });
  // A code due when the resend wait ends waits in the outbox: the mail job sends it then, once.
  if (delayMs > 0) return true;
  const delivery = deliverNow(ctx, id);
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<'waiting'>((resolve) => {
    timer = setTimeout(() => resolve('waiting'), CODE_MAIL_WAIT_MS);
  });
  const outcome = await Promise.race([delivery, waited]).finally(() => clearTimeout(timer));
  if (outcome === 'waiting')
    delivery.then(
      (late) => log.info({ outbox: String(id), purpose, sent: late }, 'code mail send finished after the answer'),
      (err: unknown) => log.warn({ err, outbox: String(id), purpose }, 'code mail send failed after the answer; the outbox retries it'),
    );
  const sent = outcome === true;
  if (!ctx.config.smtpUrl) log.info({ email: to.email, otp, purpose }, 'OTP issued');
  if (!sent) log.warn({ outbox: String(id), purpose }, 'code mail not sent yet; the outbox retries it');
  return sent;
}

/**
 * Mails a code after the answer has gone out: the answer's time must not tell a mailed code from
 * a decoy (login back-off, forgot-password, resend), so not even the queueing runs before it.
 */
export function mailCodeLater(ctx: AppContext, log: FastifyBaseLogger, userId: bigint, code: string, purpose: OtpPurpose, delayMs = 0): void {
  setImmediate(() => {
    ctx.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('id', '=', userId)
      .executeTakeFirst()
      .then((u) => u && mailOtp(ctx, log, u, code, purpose, delayMs))
      .catch((err: unknown) => log.error({ err, purpose }, 'code mail failed'));
  });
}

/** A queued code mail at send time: its code unsealed while it is still live, else not sent at all. */
prepareMailsOf(Object.values(SUBJECT), async (ctx, mail) => {
  const sealed = mail.payload.code_sealed;
  if (!sealed || mail.userId === null) return null;
  const code = unseal(ctx.secret, 'mail-code-v1', sealed);
  return (await isCodeLive(ctx, mail.userId, code)) ? { code } : null;
});

const CODE_KINDS = Object.values(SUBJECT);

/**
 * The pending code mails of an unverified account a new sign-up with its e-mail replaces (register),
 * taken off it before it is removed: `mail_outbox.user_id` is `on delete set null`, and a code mail
 * of no account is never sent, though the new account carries the code it holds (issueChallenge).
 * attachCodeMails gives them to the new account in the same transaction. Returns their ids.
 */
export async function detachCodeMails(tx: Tx, userId: bigint): Promise<bigint[]> {
  const r = await sql<{ id: bigint }>`update mail_outbox set user_id = null
    where user_id = ${userId} and status = 'pending' and kind in (${sql.join(CODE_KINDS)}) returning id`.execute(tx);
  return r.rows.map((row) => BigInt(row.id));
}

/** Gives detached code mails to the account that replaced theirs; each is still sent only while its code is that account's live code. */
export async function attachCodeMails(tx: Tx, ids: readonly bigint[], to: { id: bigint; email: string }): Promise<void> {
  if (!ids.length) return;
  await sql`update mail_outbox set user_id = ${to.id}, to_email = ${to.email}
    where id in (${sql.join(ids.map((id) => id.toString()))}) and user_id is null`.execute(tx);
}

/**
 * Whether one of these code mails, queued earlier for the user's live code, has failed to go out
 * and waits for the outbox's retry: the code the account carries has not reached the mailbox yet,
 * so the answer says `code_sent: false` as the first one did.
 */
export async function liveCodeMailLate(ctx: AppContext, ids: readonly bigint[], userId: bigint): Promise<boolean> {
  if (!ids.length) return false;
  const rows = await ctx.db
    .selectFrom('mail_outbox')
    .select('payload')
    .where('id', 'in', [...ids])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .where('attempts', '>', 0)
    .execute();
  for (const { payload } of rows) {
    const sealed = payload.code_sealed;
    if (sealed && (await isCodeLive(ctx, userId, unseal(ctx.secret, 'mail-code-v1', sealed)))) return true;
  }
  return false;
}
