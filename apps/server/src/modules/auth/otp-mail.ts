import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import '../users/table';
import { renderMail } from '../mail/service';
import type { OtpPurpose } from './otp';

const SUBJECT: Record<OtpPurpose, 'otp_verify' | 'otp_login' | 'otp_reset'> = { verify: 'otp_verify', login: 'otp_login', reset: 'otp_reset' };

/**
 * Mails a code at once (the user is waiting for it), not through the outbox. The dev outbox has
 * no inbox to read, so there the code goes on the log line too (never with SMTP). The greeting
 * uses the account's name only once the address is proven: a name typed at a sign-up nobody
 * verified is anyone's text, and the mail goes to the real owner of the address (issue 29).
 */
export async function mailOtp(
  ctx: AppContext,
  log: FastifyBaseLogger,
  to: { email: string; name: string; verified: boolean },
  otp: string,
  purpose: OtpPurpose,
): Promise<void> {
  const mail = renderMail(SUBJECT[purpose], { code: otp }, to.verified ? to.name : 'there', ctx.config.publicUrl);
  await ctx.mailer.send({ to: to.email, ...mail });
  if (!ctx.config.smtpUrl) log.info({ email: to.email, otp, purpose }, 'OTP issued');
}

/**
 * Mails a code after the answer has gone out, to the account as it is then: the answer's time must
 * not tell a mailed code from a decoy (login back-off, forgot-password, resend), so not even the
 * lookup and the rendering run before it.
 */
export function mailCodeLater(ctx: AppContext, log: FastifyBaseLogger, userId: bigint, code: string, purpose: OtpPurpose): void {
  setImmediate(() => {
    ctx.db
      .selectFrom('users')
      .select(['email', 'name', 'email_verified_at'])
      .where('id', '=', userId)
      .executeTakeFirst()
      .then((u) => u && mailOtp(ctx, log, { email: u.email, name: u.name, verified: Boolean(u.email_verified_at) }, code, purpose))
      .catch((err: unknown) => log.error({ err, purpose }, 'code mail failed'));
  });
}
