import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { seal, unseal } from '../../lib/seal';
import '../users/table';
import { deliverNow, prepareMailsOf, queueMail } from '../mail/service';
import { isCodeLive, type OtpPurpose } from './otp';

const SUBJECT: Record<OtpPurpose, 'otp_verify' | 'otp_login' | 'otp_reset'> = { verify: 'otp_verify', login: 'otp_login', reset: 'otp_reset' };

/**
 * Mails a code: queued in the outbox (sealed, so the row shows no code), then sent at once in this
 * request, since the user is waiting for it. True when the mail server took it; false when it
 * could not (down, refusing, too slow): the outbox then sends it as soon as mail works again,
 * while the code is still live, and never a dead one. Nothing here throws for a mail failure
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
  const sent = await deliverNow(ctx, id);
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
