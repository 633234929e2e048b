import { INVALID_CODE_MESSAGE, RESET_DONE_MESSAGE, type TLoginRequest, type TRegisterRequest, type TResetPasswordRequest } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { withTx } from '../../db/tx';
import { AppError } from '../../lib/errors';
import { queueMail } from '../mail/service';
import * as team from '../team/service';
import { deviceKey, deviceOfUser, type Device } from './device';
import { claimPasswordTry, clearLoginFailures, countLoginFailure, dropStaleLoginFailures, LOGIN_BACKOFF_AFTER, loginFailures } from './login-failures';
import { consumeOtp, emailKey, issueChallenge, lockKey, newestOf, replaceOtp } from './otp';
import { attachCodeMails, detachCodeMails, liveCodeMailLate, mailCodeLater, mailOtp } from './otp-mail';
import { hashPassword, verifyPassword } from './password';
import { createSession, deleteSession, deleteUserSessions, type SessionMeta } from './sessions';
import { completeLoginChallenge, startLoginChallenge } from './two-factor';
import { removeUnverifiedUser } from './unverified';
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
  /** who signed in (with a token): the route hands this browser the account's device token; never sent */
  signedIn?: { id: bigint; email: string };
}

// change-password counts wrong current passwords on the same per-e-mail count (security/service.ts).
export { clearLoginFailures, countLoginFailure, LOGIN_BACKOFF_AFTER, loginFailures };
export { claimPasswordTry, dropStaleLoginFailures } from './login-failures';
export { deviceOfEmail, devicesOf, setDeviceCookie, type Device } from './device';

export async function findUserByReferral(ctx: AppContext, referralId: string) {
  return ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'username', 'status', 'email_verified_at'])
    .where('username', '=', referralId.toUpperCase())
    .executeTakeFirst();
}

const emailTaken = () => new AppError('CONFLICT', 'Email already registered', { email: 'Email already registered' });

/**
 * Creates an unverified account, links the sponsor, and mails an OTP. No token until verified.
 *
 * The mailbox wins (server design, section 9; issue 29): an e-mail held by an account nobody has
 * verified is not 409. That account (its password, name, sponsor and team place) is dropped and
 * this sign-up takes its place; only the code mailed to the address verifies it. Inside the resend
 * wait no second code is mailed: the new access_id carries the code already in the mailbox.
 */
export async function register(ctx: AppContext, log: FastifyBaseLogger, input: TRegisterRequest): Promise<AuthResult> {
  const email = input.email.trim();
  const key = emailKey(ctx.secret, email);
  const passwordHash = await hashPassword(input.password);
  // withTx: a sign-up's counter updates up the sponsor chain can deadlock with stakes and other
  // sign-ups in the same branch; the aborted attempt wrote nothing and is run again.
  const { accessId, code, delayMs, userId, carriedMails } = await withTx(ctx.db, async (tx) => {
    await lockKey(tx, key);
    const exists = await tx
      .selectFrom('users')
      .select(['id', 'email_verified_at'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    if (exists?.email_verified_at) throw emailTaken();
    // Read before the unproven account goes (its challenges go with it): the code it had mailed stays the code.
    const newest = await newestOf(tx, key);
    // ...and so do its queued code mails: the new account gets them (issue 47; the outbox sends one
    // only while its code is the account's live code), not the account removed below.
    const carriedMails = exists ? await detachCodeMails(tx, exists.id) : [];
    if (exists && !(await removeUnverifiedUser(tx, exists.id))) throw emailTaken();
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
    const challenge = await issueChallenge(ctx, tx, { key, userId: user.id, real: true }, 'verify', { newest });
    await attachCodeMails(tx, carriedMails, { id: user.id, email });
    return { ...challenge, userId: user.id, carriedMails };
  }).catch((err: unknown) => {
    // Two sign-ups with one e-mail at the same moment: the unique index answers for the loser.
    if ((err as { code?: string }).code === '23505') throw emailTaken();
    throw err;
  });
  team.kickDrain(ctx.db); // the sponsor chain's member counts, written as one pending delta
  // The account exists now, whatever the mail server does: a mail failure answers with the
  // access_id and `code_sent: false` (the outbox sends the code later), never a 500. No code means
  // the one mailed within the resend wait still holds (the new access_id carries it); when that
  // mail has not gone out yet (the mail server is down), the answer says so as the first one did.
  const sent = code ? await mailOtp(ctx, log, { id: userId, email }, code, 'verify', delayMs) : !(await liveCodeMailLate(ctx, carriedMails, userId));
  return { access_id: accessId, ...(sent ? {} : { code_sent: false as const }) };
}

/** Signs a user in: a session, or the 2FA step first when the user has it on. */
async function signIn(ctx: AppContext, userId: bigint, meta: SessionMeta): Promise<AuthResult> {
  const user = await ctx.db.selectFrom('users').select(['email', 'status', 'is_admin', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
  if (user.totp_enabled_at) return { requires_2fa: true, challenge_id: await startLoginChallenge(ctx, ctx.db, userId) };
  return { token: await createSession(ctx.db, ctx.secret, userId, meta), is_admin: user.is_admin, signedIn: { id: userId, email: user.email } };
}

/**
 * Checks a mailed code. A token comes only from a verification or a login that asked for the code;
 * a reset code is refused here. The code reached the address, so the address is proven now (a
 * sign-up, or a sign-in code of an account that had not verified it yet).
 */
export async function verifyOtp(ctx: AppContext, accessId: string, otp: string, meta: SessionMeta = {}, devices: Device[] = []): Promise<AuthResult> {
  const { userId } = await consumeOtp(ctx, accessId, otp, ['verify', 'login'], devices);
  const now = ctx.now();
  await ctx.db.updateTable('users').set({ email_verified_at: now, updated_at: now }).where('id', '=', userId).where('email_verified_at', 'is', null).execute();
  await clearLoginFailures(ctx.db, ctx.secret, userId);
  return signIn(ctx, userId, meta);
}

/**
 * A new code for a live access_id. A decoy's gets the same answers and mails nobody; so that the
 * time does not tell them apart either, sign-in and reset codes are mailed after the answer (a
 * sign-up code, which has no decoy, still is awaited).
 */
export async function resendOtp(ctx: AppContext, log: FastifyBaseLogger, accessId: string): Promise<AuthResult> {
  const next = await ctx.db.transaction().execute((tx) => replaceOtp(ctx, tx, accessId));
  if (next.userId === null || next.code === null) return { access_id: next.accessId };
  // A login or reset code may be a decoy's twin: mailed after the answer, which says nothing of it.
  if (next.purpose !== 'verify') {
    mailCodeLater(ctx, log, next.userId, next.code, next.purpose, next.delayMs);
    return { access_id: next.accessId };
  }
  // A sign-up code has no decoy: its answer may say the mail server did not take it yet.
  const user = await ctx.db.selectFrom('users').select(['id', 'email']).where('id', '=', next.userId).executeTakeFirstOrThrow();
  const sent = await mailOtp(ctx, log, user, next.code, 'verify', next.delayMs);
  return { access_id: next.accessId, ...(sent ? {} : { code_sent: false as const }) };
}

/**
 * Unknown e-mail and wrong password answer the same 401 in the same time, and both count towards
 * the e-mail's back-off; an unverified account with the right password gets a code instead of a
 * token; a blocked one gets 403.
 *
 * Past the back-off threshold (LOGIN_BACKOFF_AFTER) every answer for the e-mail, known or not,
 * right password or wrong, is 'a code was sent', and the same work is done and the same rows
 * written for each: the try is counted, and one challenge of the e-mail is issued (issueChallenge,
 * real only for the right password of an account that is not blocked), which ends the earlier
 * ones alike. Only the real one mails a code, after the answer. So nothing an attacker can see
 * (status, body, time, what earlier access ids answer next) tells a right password (issue 29).
 *
 * A device of the account (device.ts: this browser signed in to it before) has its own count of
 * wrong passwords instead of the e-mail's (issue 46): an outsider's wrong passwords put the e-mail
 * in back-off, never the owner's own devices, which sign in with the password as usual. Whether
 * the device path is taken depends on the token the request carries, never on the password.
 */
export async function login(
  ctx: AppContext,
  log: FastifyBaseLogger,
  input: TLoginRequest,
  meta: SessionMeta = {},
  devices: Device[] = [],
): Promise<AuthResult & { step: 'signed-in' | 'verify' | 'code' | '2fa' }> {
  const email = input.email.trim().toLowerCase();
  const key = emailKey(ctx.secret, email);
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'status', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  const good = await verifyPassword(user?.password_hash, input.password);
  // The device's count is kept like an e-mail's, under the keyed hash of `device:<id>` (no e-mail
  // address has that form). A device past its own limit falls back to the e-mail's path below.
  const device = deviceOfUser(devices, user?.email_verified_at ? user.id : null);
  // The device's try is claimed in one statement before its answer is used (claimPasswordTry), so
  // parallel wrong passwords from one device never count past its 10.
  if (device && (await claimPasswordTry(ctx, deviceKey(device)))) {
    if (!good) {
      await dropStaleLoginFailures(ctx);
      throw new AppError('UNAUTHENTICATED', 'Invalid email or password');
    }
    await clearLoginFailures(ctx.db, ctx.secret, user!.id);
    await ctx.db
      .deleteFrom('login_failures')
      .where('email_key', '=', emailKey(ctx.secret, deviceKey(device)))
      .execute();
    const result = await signIn(ctx, user!.id, meta);
    return { ...result, step: result.requires_2fa ? '2fa' : 'signed-in' };
  }
  const failures = await loginFailures(ctx, email);
  if (failures >= LOGIN_BACKOFF_AFTER) {
    await countLoginFailure(ctx, email);
    const real = Boolean(user && good && user.status !== 'blocked');
    const { accessId, code, delayMs } = await ctx.db.transaction().execute((tx) => issueChallenge(ctx, tx, { key, userId: user?.id ?? null, real }, 'login'));
    if (code && user) mailCodeLater(ctx, log, user.id, code, 'login', delayMs);
    return { access_id: accessId, step: 'code' };
  }
  if (!user || !good) {
    await countLoginFailure(ctx, email);
    throw new AppError('UNAUTHENTICATED', 'Invalid email or password');
  }
  if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
  if (!user.email_verified_at) {
    const { accessId, code, delayMs } = await ctx.db.transaction().execute((tx) => issueChallenge(ctx, tx, { key, userId: user.id, real: true }, 'verify'));
    const sent = code ? await mailOtp(ctx, log, user, code, 'verify', delayMs) : true;
    return { access_id: accessId, step: 'verify', ...(sent ? {} : { code_sent: false as const }) };
  }
  if (failures > 0) await clearLoginFailures(ctx.db, ctx.secret, user.id);
  const result = await signIn(ctx, user.id, meta);
  return { ...result, step: result.requires_2fa ? '2fa' : 'signed-in' };
}

export async function loginSecondStep(ctx: AppContext, challengeId: string, code: string, meta: SessionMeta = {}, devices: Device[] = []): Promise<AuthResult> {
  const userId = await completeLoginChallenge(ctx, challengeId, code, devices);
  const user = await ctx.db.selectFrom('users').select(['email', 'status', 'is_admin']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
  return { token: await createSession(ctx.db, ctx.secret, userId, meta), is_admin: user.is_admin, signedIn: { id: userId, email: user.email } };
}

export async function logout(ctx: AppContext, token: string): Promise<void> {
  await deleteSession(ctx.db, ctx.secret, token);
}

/**
 * Always the same answer, with an access_id for unknown e-mails too, so it reveals nothing. Every
 * e-mail takes the same path with the same statements (the user lookup, then one transaction that
 * issues the e-mail's challenge): a verified account that is not blocked gets a real one and a
 * code mailed after the answer (not more often than the resend wait allows); any other e-mail
 * (unknown, unverified, blocked) a decoy that answers resend and reset like a real one.
 */
export async function forgotPassword(ctx: AppContext, log: FastifyBaseLogger, emailInput: string): Promise<{ access_id: string }> {
  const email = emailInput.trim().toLowerCase();
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'status', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  const real = Boolean(user?.email_verified_at && user.status !== 'blocked');
  const { accessId, code, delayMs } = await ctx.db
    .transaction()
    .execute((tx) => issueChallenge(ctx, tx, { key: emailKey(ctx.secret, email), userId: user?.id ?? null, real }, 'reset'));
  if (code && user) mailCodeLater(ctx, log, user.id, code, 'reset', delayMs);
  return { access_id: accessId };
}

/** A right reset code sets the new password, signs every device out and mails a notice. */
export async function resetPassword(ctx: AppContext, input: TResetPasswordRequest, devices: Device[] = []): Promise<string> {
  // A wrong code and a dead one get the same answer here (server design, section 9); past the
  // guess budget the 429 stays a 429.
  const { userId } = await consumeOtp(ctx, input.access_id, input.otp, ['reset'], devices).catch((err: unknown) => {
    throw err instanceof AppError && err.status === 400 ? new AppError('BAD_REQUEST', INVALID_CODE_MESSAGE) : err;
  });
  const hash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ password_hash: hash, updated_at: ctx.now() }).where('id', '=', userId).execute();
    await clearLoginFailures(tx, ctx.secret, userId);
    await deleteUserSessions(tx, userId);
    await queueMail(tx, userId, 'password_reset');
  });
  return RESET_DONE_MESSAGE;
}

/** For the daily clean-up job: auth's expired rows. */
export { purgeExpired } from './purge';

// What other modules may use of auth: sessions, password hashing, usernames and the second factor.
export { createSession, deleteUserSessions, forgetSessions, hashToken, sessionCheck, touchSession } from './sessions';
export { hashPassword, verifyPassword } from './password';
export { generateUsername } from './usernames';
export { removeUnverifiedUser } from './unverified';
export { disableTwoFactor, enableTwoFactor, requireSecondFactor, setupTwoFactor, startLoginChallenge } from './two-factor';
