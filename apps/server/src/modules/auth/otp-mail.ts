import { randomBytes } from 'node:crypto';
import { OTP_MAX_TRIES, OTP_RESEND_SECONDS } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/types';
import { renderMail } from '../mail/service';
import { accessIdHash, challengesOf, issueDecoy, issueOtp, lockOwner, type OtpOwner, type OtpPurpose } from './otp';

/**
 * A code for the owner, without flooding their inbox: while their newest challenge of this purpose
 * is live and younger than the resend wait, a new access_id takes it over (same code, same tries
 * used, same expiry) and no mail is sent; otherwise a fresh code is issued and must be mailed. A
 * decoy walks the same steps and never has a code (`otp` null).
 */
export async function challengeFor(tx: Tx, secret: string, owner: OtpOwner, purpose: OtpPurpose): Promise<{ accessId: string; otp: string | null }> {
  await lockOwner(tx, owner);
  const newest = await challengesOf(tx, owner).limit(1).executeTakeFirst();
  const live =
    newest &&
    newest.purpose === purpose &&
    !newest.dead &&
    newest.used_at === null &&
    newest.attempts < OTP_MAX_TRIES &&
    newest.expires_at.getTime() > Date.now() &&
    newest.created_at.getTime() + OTP_RESEND_SECONDS * 1000 > Date.now();
  if (owner.userId === undefined) return { accessId: await issueDecoy(tx, secret, owner.decoyKey, purpose, live ? newest : undefined), otp: null };
  if (!live) return issueOtp(tx, secret, owner.userId, purpose);
  const accessId = randomBytes(32).toString('base64url');
  await tx.updateTable('otp_challenges').set({ dead: true }).where('id', '=', newest.id).execute();
  await tx
    .insertInto('otp_challenges')
    .values({
      user_id: owner.userId,
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
