import type { TLoginRequest, TRegisterRequest } from '@app/core';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import * as team from '../team/service';
import { consumeOtp, issueOtp, killUserOtps, replaceOtp } from './otp';
import { hashPassword, verifyPassword } from './password';
import { createSession, deleteSession } from './sessions';
import { generateUsername } from './usernames';
import '../users/table';

export interface AuthResult {
  token?: string;
  access_id?: string;
  is_admin?: boolean;
}

async function mailOtp(ctx: AppContext, log: FastifyBaseLogger, email: string, name: string, otp: string): Promise<void> {
  await ctx.mailer.send({
    to: email,
    subject: 'Your verification code',
    text: `Hello ${name},\n\nYour USDT Stake verification code is ${otp}. It is valid for 10 minutes.\n\nIf you did not ask for it, ignore this mail.`,
  });
  // The dev outbox has no inbox to read, so the code goes on the log line too (never with SMTP).
  if (!ctx.config.smtpUrl) log.info({ email, otp }, 'OTP issued');
}

export async function findUserByReferral(ctx: AppContext, referralId: string) {
  return ctx.db.selectFrom('users').select(['id', 'name', 'username', 'status']).where('username', '=', referralId.toUpperCase()).executeTakeFirst();
}

/** Creates an unverified account, links the sponsor, and mails an OTP. No token until verified. */
export async function register(ctx: AppContext, log: FastifyBaseLogger, input: TRegisterRequest): Promise<AuthResult> {
  const email = input.email.trim();
  const passwordHash = await hashPassword(input.password);
  const { accessId, otp, name } = await ctx.db.transaction().execute(async (tx) => {
    const exists = await tx
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    if (exists) throw new AppError('CONFLICT', 'Email already registered', { email: 'Email already registered' });
    let referrerId: bigint | null = null;
    if (input.referral_id) {
      const sponsor = await tx.selectFrom('users').select(['id', 'status']).where('username', '=', input.referral_id.toUpperCase()).executeTakeFirst();
      if (!sponsor || sponsor.status === 'blocked') throw new AppError('VALIDATION', 'Invalid referral ID', { referral_id: 'Invalid referral ID' });
      referrerId = sponsor.id;
    }
    const user = await tx
      .insertInto('users')
      .values({ name: input.name, email, username: await generateUsername(tx), password_hash: passwordHash, referrer_id: referrerId })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    await team.onUserCreated(tx, user.id, referrerId);
    return { ...(await issueOtp(tx, ctx.secret, user.id)), name: user.name };
  }).catch((err: unknown) => {
    // Two sign-ups with one e-mail at the same moment: the unique index answers for the loser.
    if ((err as { code?: string }).code === '23505') throw new AppError('CONFLICT', 'Email already registered', { email: 'Email already registered' });
    throw err;
  });
  await mailOtp(ctx, log, email, name, otp);
  return { access_id: accessId };
}

/** Checks the code; on success the e-mail is verified and a session starts. */
export async function verifyOtp(ctx: AppContext, accessId: string, otp: string): Promise<AuthResult> {
  const userId = await consumeOtp(ctx.db, ctx.secret, accessId, otp);
  return ctx.db.transaction().execute(async (tx) => {
    const user = await tx
      .updateTable('users')
      .set({ email_verified_at: new Date(), updated_at: new Date() })
      .where('id', '=', userId)
      .returning(['id', 'status', 'is_admin'])
      .executeTakeFirstOrThrow();
    if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
    return { token: await createSession(tx, ctx.secret, user.id), is_admin: user.is_admin };
  });
}

export async function resendOtp(ctx: AppContext, log: FastifyBaseLogger, accessId: string): Promise<AuthResult> {
  const next = await ctx.db.transaction().execute((tx) => replaceOtp(tx, ctx.secret, accessId));
  const user = await ctx.db.selectFrom('users').select(['email', 'name']).where('id', '=', next.userId).executeTakeFirstOrThrow();
  await mailOtp(ctx, log, user.email, user.name, next.otp);
  return { access_id: next.accessId };
}

/**
 * Unknown e-mail and wrong password answer the same 401 in the same time; an unverified account
 * with the right password gets a fresh OTP instead of a token; a blocked one gets 403.
 */
export async function login(ctx: AppContext, log: FastifyBaseLogger, input: TLoginRequest): Promise<AuthResult & { verified: boolean }> {
  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'password_hash', 'status', 'is_admin', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email.trim().toLowerCase()))
    .executeTakeFirst();
  const good = await verifyPassword(user?.password_hash, input.password);
  if (!user || !good) throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  if (user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
  if (!user.email_verified_at) {
    const { accessId, otp } = await ctx.db.transaction().execute(async (tx) => {
      await killUserOtps(tx, user.id);
      return issueOtp(tx, ctx.secret, user.id);
    });
    await mailOtp(ctx, log, user.email, user.name, otp);
    return { access_id: accessId, verified: false };
  }
  return { token: await createSession(ctx.db, ctx.secret, user.id), is_admin: user.is_admin, verified: true };
}

export async function logout(ctx: AppContext, token: string): Promise<void> {
  await deleteSession(ctx.db, ctx.secret, token);
}
