import { OTP_MAX_TRIES } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/types';
import { renderMail } from '../mail/service';
import { accessIdHash, issueOtp, lockUser, type OtpPurpose } from './otp';
import { randomBytes } from 'node:crypto';
import { OTP_RESEND_SECONDS } from '@app/core';

/**
 * A code for the user, without flooding their inbox: while their newest challenge of this purpose
 * is live and younger than the resend wait, a new access_id takes it over (same code, same tries
 * used, same expiry) and no mail is sent; otherwise a fresh code is issued and must be mailed.
 */
export async function challengeFor(tx: Tx, secret: string, userId: bigint, purpose: OtpPurpose): Promise<{ accessId: string; otp: string | null }> {
  await lockUser(tx, userId);
  const newest = await tx.selectFrom('otp_challenges').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const live =
    newest &&
    newest.purpose === purpose &&
    !newest.dead &&
    newest.used_at === null &&
    newest.attempts < OTP_MAX_TRIES &&
    newest.expires_at.getTime() > Date.now() &&
    newest.created_at.getTime() + OTP_RESEND_SECONDS * 1000 > Date.now();
  if (!live) return issueOtp(tx, secret, userId, purpose);
  const accessId = randomBytes(32).toString('base64url');
  await tx.updateTable('otp_challenges').set({ dead: true }).where('id', '=', newest.id).execute();
  await tx
    .insertInto('otp_challenges')
    .values({
      user_id: userId,
      purpose,
      access_id_hash: accessIdHash(secret, accessId),
      otp_hash: newest.otp_hash,
      attempts: newest.attempts,
      created_at: newest.created_at,
      expires_at: newest.expires_at,
    })
    .execute();
  return { accessId, otp: null };
}

const SUBJECT: Record<OtpPurpose, 'otp_verify' | 'otp_login' | 'otp_reset'> = { verify: 'otp_verify', login: 'otp_login', reset: 'otp_reset' };

/**
 * Mails a code at once (the user is waiting for it), not through the outbox. The dev outbox has
 * no inbox to read, so there the code goes on the log line too (never with SMTP).
 */
export async function mailOtp(ctx: AppContext, log: FastifyBaseLogger, to: { email: string; name: string }, otp: string, purpose: OtpPurpose): Promise<void> {
  const mail = renderMail(SUBJECT[purpose], { code: otp }, to.name, ctx.config.publicUrl);
  await ctx.mailer.send({ to: to.email, ...mail });
  if (!ctx.config.smtpUrl) log.info({ email: to.email, otp, purpose }, 'OTP issued');
}
