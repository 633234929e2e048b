import { INVALID_CODE_MESSAGE, RESET_DONE_MESSAGE, type TLoginRequest, type TRegisterRequest, type TResetPasswordRequest } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { withTx } from '../../db/tx';
import { AppError } from '../../lib/errors';
import { queueMail } from '../mail/service';
import * as team from '../team/service';
import { clearLoginFailures, countLoginFailure, loginFailures } from './login-failures';
import { consumeOtp, emailKey, issueOtp, replaceOtp } from './otp';
import { challengeFor, mailOtp } from './otp-mail';
import { hashPassword, verifyPassword } from './password';
import { createSession, deleteSession, deleteUserSessions, type SessionMeta } from './sessions';
import { completeLoginChallenge, startLoginChallenge } from './two-factor';
import { deleteStaleUnverified, removeUnverifiedUser } from './unverified';
import { generateUsername } from './usernames';
import '../users/table';

export interface AuthResult {
  token?: string;
  access_id?: string;
  is_admin?: boolean;
  /** false when the code could not be mailed yet (mailOtp); absent when it was */
  code_sent?: false;
  requires_2fa?: true;
  challenge_id?: string;
}

/**
 * Wrong passwords in a row for an e-mail after which a login also needs a code mailed to the
 * owner. Past it a right and a wrong password, and an unknown e-mail, get the same answer (a code
 * 'was sent', with an access_id that answers resend and verify like a real one), so guessing
 * learns nothing, and the owner is never locked out: their password plus the mailed code still
 * sign them in. See docs/decisions/2026-11-23-login-back-off.md.
 */
export const LOGIN_BACKOFF_AFTER = 10;

export async function findUserByReferral(ctx: AppContext, referralId: string) {
  return ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'username', 'status', 'email_verified_at'])
    .where('username', '=', referralId.toUpperCase())
    .executeTakeFirst();
}

/** Creates an unverified account, links the sponsor, and mails an OTP. No token until verified. */
export async function register(ctx: AppContext, log: FastifyBaseLogger, input: TRegisterRequest): Promise<AuthResult> {
  const email = input.email.trim();
  const passwordHash = await hashPassword(input.password);
  // withTx: a sign-up's counter updates up the sponsor chain can deadlock with stakes and other
  // sign-ups in the same branch; the aborted attempt wrote nothing and is run again.
  const { accessId, otp, userId } = await withTx(ctx.db, async (tx) => {
    const exists = await tx
      .selectFrom('users')
      .select(['id', 'email_verified_at', 'created_at'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    // An address nobody proved within 24 hours is free again, even before the clean-up job ran.
    const stale = exists && !exists.email_verified_at && exists.created_at.getTime() < Date.now() - 24 * 3_600_000;
    if (exists && !(stale && (await removeUnverifiedUser(tx, exists.id))))
      throw new AppError('CONFLICT', 'Email already registered', { email: 'Email already registered' });
    let referrerId: bigint | null = null;
    if (input.referral_id) {
      const sponsor = await tx
        .selectFrom('users')
        .select(['id', 'status', 'email_verified_at'])
        .where('username', '=', input.referral_id.toUpperCase())
        .executeTakeFirst();
      // An unverified account is nobody's sponsor yet: it may be deleted after 24 hours.
      if (!sponsor || sponsor.status === 'blocked' || !sponsor.email_verified_at)
        throw new AppError('VALIDATION', 'Invalid referral ID', { referral_id: 'Invalid referral ID' });
      referrerId = sponsor.id;
    }
    const user = await tx
      .insertInto('users')
      .values({ name: input.name, email, username: await generateUsername(tx), password_hash: passwordHash, referrer_id: referrerId })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    await team.onUserCreated(tx, user.id, referrerId);
    return { ...(await issueOtp(tx, ctx.secret, user.id, 'verify')), userId: user.id };
  }).catch((err: unknown) => {
    // Two sign-ups with one e-mail at the same moment: the unique index answers for the loser.
    if ((err as { code?: string }).code === '23505') throw new AppError('CONFLICT', 'Email already registered', { email: 'Email already registered' });
    throw err;
  });
  team.kickDrain(ctx.db); // the sponsor chain's member counts, written as one pending delta
  // The account exists now, whatever the mail server does: a mail failure answers with the
  // access_id and `code_sent: false` (the outbox sends the code later), never a 500.
  const sent = await mailOtp(ctx, log, { id: userId, email }, otp, 'verify');
  return { access_id: accessId, ...(sent ? {} : { code_sent: false as const }) };
}

/** Signs a user in: a session, or the 2FA step first when the user has it on. */
async function signIn(ctx: AppContext, userId: bigint, meta: SessionMeta): Promise<AuthResult> {
  const user = await ctx.db.selectFrom('users').select(['status', 'is_admin', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
  if (user.totp_enabled_at) return { requires_2fa: true, challenge_id: await startLoginChallenge(ctx, ctx.db, userId) };
  return { token: await createSession(ctx.db, ctx.secret, userId, meta), is_admin: user.is_admin };
}

/**
 * Checks a mailed code. A token comes only from a verification (the e-mail is verified now) or a
 * login that asked for the code; a reset code is refused here.
 */
export async function verifyOtp(ctx: AppContext, accessId: string, otp: string, meta: SessionMeta = {}): Promise<AuthResult> {
  const { userId, purpose } = await consumeOtp(ctx.db, ctx.secret, accessId, otp, ['verify', 'login']);
  if (purpose === 'verify') {
    const done = await ctx.db
      .updateTable('users')
      .set({ email_verified_at: new Date(), updated_at: new Date() })
      .where('id', '=', userId)
      .where('email_verified_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!done) throw new AppError('BAD_REQUEST', INVALID_CODE_MESSAGE);
  }
  await clearLoginFailures(ctx.db, ctx.secret, userId);
  return signIn(ctx, userId, meta);
}

/**
 * A new code for a live access_id. A decoy's gets the same answers and mails nobody; so that the
 * time does not tell them apart either, sign-in and reset codes are mailed without waiting (a
 * sign-up code, which has no decoy, still is awaited).
 */
export async function resendOtp(ctx: AppContext, log: FastifyBaseLogger, accessId: string): Promise<AuthResult> {
  const next = await ctx.db.transaction().execute((tx) => replaceOtp(tx, ctx.secret, accessId));
  if (next.userId === null || next.otp === null) return { access_id: next.accessId };
  const user = await ctx.db.selectFrom('users').select(['id', 'email']).where('id', '=', next.userId).executeTakeFirstOrThrow();
  const sending = mailOtp(ctx, log, user, next.otp, next.purpose);
  if (next.purpose !== 'verify') {
    sending.catch((err: unknown) => log.error({ err }, 'resent code mail failed'));
    return { access_id: next.accessId };
  }
  return { access_id: next.accessId, ...((await sending) ? {} : { code_sent: false as const }) };
}

/** A decoy access_id for this e-mail (see OtpOwner): answers like a real one, mails nobody. */
async function decoyFor(ctx: AppContext, email: string, purpose: 'login' | 'reset'): Promise<string> {
  const { accessId } = await ctx.db.transaction().execute((tx) => challengeFor(tx, ctx.secret, { decoyKey: emailKey(ctx.secret, email) }, purpose));
  return accessId;
}

/**
 * Unknown e-mail and wrong password answer the same 401 in the same time, and both count towards
 * the e-mail's back-off; an unverified account with the right password gets a code instead of a
 * token; a blocked one gets 403. Past the back-off threshold every answer for the e-mail, known or
 * not, is 'a code was sent' (see LOGIN_BACKOFF_AFTER).
 */
export async function login(
  ctx: AppContext,
  log: FastifyBaseLogger,
  input: TLoginRequest,
  meta: SessionMeta = {},
): Promise<AuthResult & { step: 'signed-in' | 'verify' | 'code' | '2fa' }> {
  const email = input.email.trim().toLowerCase();
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'status', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  const good = await verifyPassword(user?.password_hash, input.password);
  const failures = await loginFailures(ctx.db, ctx.secret, email);
  const backOff = failures >= LOGIN_BACKOFF_AFTER;
  if (!user || !good) {
    await countLoginFailure(ctx.db, ctx.secret, email);
    // In back-off a wrong password, or an unknown e-mail, looks like a right one: a decoy access_id.
    if (backOff) return { access_id: await decoyFor(ctx, email, 'login'), step: 'code' };
    throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  }
  if (user.status === 'blocked') {
    // In back-off a 403 would tell a guesser the password was right: the decoy answer instead.
    if (backOff) return { access_id: await decoyFor(ctx, email, 'login'), step: 'code' };
    throw new AppError('FORBIDDEN', 'Your account has been blocked');
  }
  if (!user.email_verified_at || backOff) {
    const purpose = user.email_verified_at ? 'login' : 'verify';
    const { accessId, otp } = await ctx.db.transaction().execute((tx) => challengeFor(tx, ctx.secret, { userId: user.id }, purpose));
    let sent = true;
    if (otp) {
      // Not awaited in back-off, so the time of the answer does not tell a right password from a wrong one.
      const sending = mailOtp(ctx, log, user, otp, purpose);
      if (backOff) sending.catch((err: unknown) => log.error({ err }, 'sign-in code mail failed'));
      else sent = await sending;
    }
    return { access_id: accessId, step: backOff ? 'code' : 'verify', ...(sent ? {} : { code_sent: false as const }) };
  }
  if (failures > 0) await clearLoginFailures(ctx.db, ctx.secret, user.id);
  const result = await signIn(ctx, user.id, meta);
  return { ...result, step: result.requires_2fa ? '2fa' : 'signed-in' };
}

export async function loginSecondStep(ctx: AppContext, challengeId: string, code: string, meta: SessionMeta = {}): Promise<AuthResult> {
  const userId = await completeLoginChallenge(ctx, challengeId, code);
  const user = await ctx.db.selectFrom('users').select(['status', 'is_admin']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
  return { token: await createSession(ctx.db, ctx.secret, userId, meta), is_admin: user.is_admin };
}

export async function logout(ctx: AppContext, token: string): Promise<void> {
  await deleteSession(ctx.db, ctx.secret, token);
}

/**
 * Always the same answer, with an access_id for unknown e-mails too, so it reveals nothing: an
 * e-mail that gets no code (unknown, unverified, blocked) gets a decoy access_id that answers
 * resend and reset like a real one. A verified account gets a mailed code (not more often than
 * the resend wait allows).
 */
export async function forgotPassword(ctx: AppContext, log: FastifyBaseLogger, emailInput: string): Promise<{ access_id: string }> {
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'status', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', emailInput.trim().toLowerCase()))
    .executeTakeFirst();
  if (!user || !user.email_verified_at || user.status === 'blocked') return { access_id: await decoyFor(ctx, emailInput, 'reset') };
  const { accessId, otp } = await ctx.db.transaction().execute((tx) => challengeFor(tx, ctx.secret, { userId: user.id }, 'reset'));
  if (otp) mailOtp(ctx, log, user, otp, 'reset').catch((err: unknown) => log.error({ err }, 'reset code mail failed'));
  return { access_id: accessId };
}

/** A right reset code sets the new password, signs every device out and mails a notice. */
export async function resetPassword(ctx: AppContext, input: TResetPasswordRequest): Promise<string> {
  // A wrong code and a dead one get the same answer here (server design, section 9).
  const { userId } = await consumeOtp(ctx.db, ctx.secret, input.access_id, input.otp, ['reset']).catch((err: unknown) => {
    throw err instanceof AppError && err.status === 400 ? new AppError('BAD_REQUEST', INVALID_CODE_MESSAGE) : err;
  });
  const hash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', userId).execute();
    await clearLoginFailures(tx, ctx.secret, userId);
    await deleteUserSessions(tx, userId);
    await queueMail(tx, userId, 'password_reset');
  });
  return RESET_DONE_MESSAGE;
}

export { deleteStaleUnverified };

// What other modules may use of auth: sessions, password hashing, usernames and the second factor.
export { createSession, deleteUserSessions, forgetSessions, hashToken, sessionCheck, touchSession } from './sessions';
export { hashPassword, verifyPassword } from './password';
export { generateUsername } from './usernames';
export { removeUnverifiedUser } from './unverified';
export { disableTwoFactor, enableTwoFactor, requireSecondFactor, setupTwoFactor, startLoginChallenge } from './two-factor';
