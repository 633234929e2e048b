import { randomBytes } from 'node:crypto';
import { OTP_MAX_TRIES, OTP_RESEND_SECONDS } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/types';
import { seal, unseal } from '../../lib/seal';
import { deliverNow, prepareMailsOf, queueMail } from '../mail/service';
import { accessIdHash, challengesOf, isCodeLive, issueDecoy, issueOtp, lockOwner, type OtpOwner, type OtpPurpose } from './otp';

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
 * Mails a code: queued in the outbox (sealed, so the row shows no code), then sent at once in this
 * request, since the user is waiting for it. True when the mail server took it; false when it
 * could not (down, refusing, too slow): the outbox then sends it as soon as mail works again,
 * while the code is still live, and never a dead one. Nothing here throws for a mail failure
 * (issue 30: a sign-up while the mail server is down). The dev outbox has no inbox to read, so
 * there the code goes on the log line too (never with SMTP).
 */
export async function mailOtp(ctx: AppContext, log: FastifyBaseLogger, to: { id: bigint; email: string }, otp: string, purpose: OtpPurpose): Promise<boolean> {
  const id = await queueMail(ctx.db, to.id, SUBJECT[purpose], { code_sealed: seal(ctx.secret, 'mail-code-v1', otp) }, { wake: false });
  const sent = await deliverNow(ctx, id);
  if (!ctx.config.smtpUrl) log.info({ email: to.email, otp, purpose }, 'OTP issued');
  if (!sent) log.warn({ outbox: String(id), purpose }, 'code mail not sent yet; the outbox retries it');
  return sent;
}

/** A queued code mail at send time: its code unsealed while it is still live, else not sent at all. */
prepareMailsOf(Object.values(SUBJECT), async (ctx, mail) => {
  const sealed = mail.payload.code_sealed;
  if (!sealed || mail.userId === null) return null;
  const code = unseal(ctx.secret, 'mail-code-v1', sealed);
  return (await isCodeLive(ctx.db, ctx.secret, mail.userId, code)) ? { code } : null;
});
