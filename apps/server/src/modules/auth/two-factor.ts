import { createHmac, randomBytes } from 'node:crypto';
import { INVALID_2FA_MESSAGE, INVALID_CODE_MESSAGE, OTP_MAX_TRIES, RECOVERY_REUSED_MESSAGE, TOTP_REUSED_MESSAGE, TWO_FA_REQUIRED_MESSAGE } from '@app/core';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor, Id, Timestamp } from '../../db/types';
import { AppError, fieldError } from '../../lib/errors';
import { queueMail } from '../mail/service';
import { compareUnderBudget } from './guess-budget';
import { deviceKey, deviceOfUser, type Device } from './device';
import { matchTotpStep, newRecoveryCodes, newTotpSecret, openSecret, recoveryCodeHash, sealSecret } from './totp';
import '../users/table';

export interface RecoveryCodesTable {
  id: Id;
  user_id: bigint;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: Timestamp;
}
export interface LoginChallengesTable {
  id: Id;
  user_id: bigint;
  challenge_hash: string;
  attempts: number;
  used_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}
declare module '../../db/types' {
  interface Database {
    recovery_codes: RecoveryCodesTable;
    login_challenges: LoginChallengesTable;
  }
}

const CHALLENGE_TTL_MS = 5 * 60_000;
const challengeHash = (secret: string, id: string) => createHmac('sha256', secret).update(`login2fa:${id}`).digest('hex');

/**
 * Checks a second factor under a guess budget (guess-budget.ts): the slot is claimed before the
 * code is compared, in one statement, so parallel guesses on PostgreSQL never get past it (issue
 * 29, finding 3); past it every try is 429, the right code included. The budget is the device's
 * when the request comes from a device of this account (device.ts), otherwise the account's
 * second-factor budget, which only a holder of the password (login/2fa) or of a live session
 * (withdrawal, 2FA changes) can reach: an outsider who knows the e-mail can never spend it (issue
 * 46). Then a TOTP step not accepted before (recorded atomically, so a code works once even in
 * parallel) or an unused recovery code (marked used atomically).
 *
 * A right code for a step already used, or a recovery code already spent, is refused with its own
 * message and is not a wrong guess: it proves the factor, and counting it let a user lock his own
 * second factor with a double submit.
 */
export async function checkSecondFactor(
  ctx: AppContext,
  db: Executor,
  userId: bigint,
  code: string,
  devices: Device[] = [],
): Promise<'good' | 'wrong' | 'replayed'> {
  const user = await db.selectFrom('users').select(['totp_secret_enc', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirst();
  if (!user?.totp_secret_enc) return 'wrong';
  const secretEnc = user.totp_secret_enc;
  const device = deviceOfUser(devices, userId);
  return compareUnderBudget(ctx, db, { key: device ? deviceKey(device) : secondFactorKey(userId), userId }, () =>
    matchSecondFactor(ctx, db, userId, { totp_secret_enc: secretEnc, totp_enabled_at: user.totp_enabled_at }, code),
  );
}

/** The account's second-factor budget (guess-budget.ts), apart from its e-mail's. */
export const secondFactorKey = (userId: bigint) => `2fa:${userId}`;

/** The answer to a refused second factor: a wrong code, or a right one already used, on the form's code field. */
function refused(field: string, result: 'wrong' | 'replayed', code: string): AppError {
  if (result === 'wrong') return fieldError(field, INVALID_2FA_MESSAGE, 'INVALID_2FA');
  return fieldError(field, /^\d{6}$/.test(code) ? TOTP_REUSED_MESSAGE : RECOVERY_REUSED_MESSAGE, 'BAD_REQUEST');
}

/** A spent guess budget answers on the form's code field too, so the browser shows it there from the answer alone. */
const onField = (field: string) => (err: unknown) => {
  if (err instanceof AppError && err.code === 'TOO_MANY_ATTEMPTS') throw new AppError('TOO_MANY_ATTEMPTS', err.message, { [field]: err.message });
  throw err;
};

async function matchSecondFactor(
  ctx: AppContext,
  db: Executor,
  userId: bigint,
  user: { totp_secret_enc: string; totp_enabled_at: Date | null },
  code: string,
): Promise<'good' | 'wrong' | 'replayed'> {
  if (/^\d{6}$/.test(code)) {
    const step = matchTotpStep(openSecret(ctx.secret, user.totp_secret_enc), code, ctx.now().getTime());
    if (step === null) return 'wrong';
    const took = await db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .returning('id')
      .executeTakeFirst();
    return took ? 'good' : 'replayed';
  }
  if (!user.totp_enabled_at) return 'wrong';
  // One statement: marks an unused code used, or finds it spent (a double submit: no guess).
  const r = await sql<{ fresh: boolean }>`
    with hit as (select id, used_at is null as fresh from recovery_codes where user_id = ${userId} and code_hash = ${recoveryCodeHash(ctx.secret, code)}),
      took as (update recovery_codes set used_at = ${ctx.now()} where id in (select id from hit where fresh) and used_at is null returning id)
    select exists (select 1 from took) as fresh from hit`.execute(db);
  const row = r.rows[0];
  return row === undefined ? 'wrong' : row.fresh ? 'good' : 'replayed';
}

export async function isTwoFactorOn(db: Executor, userId: bigint): Promise<boolean> {
  const u = await db.selectFrom('users').select('totp_enabled_at').where('id', '=', userId).executeTakeFirst();
  return Boolean(u?.totp_enabled_at);
}

/** The withdrawal's gate: with 2FA on, a missing code and a wrong one are refused before any debit. */
export async function requireSecondFactor(ctx: AppContext, userId: bigint, code: string | undefined, devices: Device[] = []): Promise<void> {
  if (!(await isTwoFactorOn(ctx.db, userId))) return;
  if (!code) throw new AppError('TWO_FA_REQUIRED', TWO_FA_REQUIRED_MESSAGE, { totp_code: TWO_FA_REQUIRED_MESSAGE });
  const clean = code.replace(/\s+/g, '').toLowerCase();
  const result = await checkSecondFactor(ctx, ctx.db, userId, clean, devices).catch(onField('totp_code'));
  if (result !== 'good') throw refused('totp_code', result, clean);
}

/** Starts set-up: a new secret, stored sealed; nothing is on until enable proves a code. */
export async function setupTwoFactor(ctx: AppContext, userId: bigint): Promise<{ secret: string; otpauth_url: string }> {
  const user = await ctx.db.selectFrom('users').select(['email', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.totp_enabled_at) throw new AppError('CONFLICT', 'Two-factor authentication is already enabled');
  const { secret, otpauthUrl } = newTotpSecret(user.email);
  await ctx.db
    .updateTable('users')
    .set({ totp_secret_enc: sealSecret(ctx.secret, secret), totp_last_step: null })
    .where('id', '=', userId)
    .execute();
  return { secret, otpauth_url: otpauthUrl };
}

export async function enableTwoFactor(ctx: AppContext, userId: bigint, code: string, devices: Device[] = []): Promise<{ recovery_codes: string[] }> {
  const user = await ctx.db.selectFrom('users').select(['totp_secret_enc', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (user.totp_enabled_at) throw new AppError('CONFLICT', 'Two-factor authentication is already enabled');
  if (!user.totp_secret_enc) throw new AppError('BAD_REQUEST', 'Start the two-factor set-up first');
  // Checked outside the transaction below, so a wrong code stays counted.
  if (!/^\d{6}$/.test(code)) throw fieldError('code', INVALID_2FA_MESSAGE, 'INVALID_2FA');
  const result = await checkSecondFactor(ctx, ctx.db, userId, code, devices).catch(onField('code'));
  if (result !== 'good') throw refused('code', result, code);
  return ctx.db.transaction().execute(async (tx) => {
    const codes = newRecoveryCodes();
    await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await tx
      .insertInto('recovery_codes')
      .values(codes.map((c) => ({ user_id: userId, code_hash: recoveryCodeHash(ctx.secret, c) })))
      .execute();
    const on = await tx
      .updateTable('users')
      .set({ totp_enabled_at: new Date() })
      .where('id', '=', userId)
      .where('totp_enabled_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!on) throw new AppError('CONFLICT', 'Two-factor authentication is already enabled');
    await queueMail(tx, userId, 'two_factor_enabled');
    return { recovery_codes: codes };
  });
}

export async function disableTwoFactor(ctx: AppContext, userId: bigint, code: string, devices: Device[] = []): Promise<void> {
  if (!(await isTwoFactorOn(ctx.db, userId))) throw new AppError('BAD_REQUEST', 'Two-factor authentication is not enabled');
  // Checked outside the transaction below, so a wrong code stays counted.
  const result = await checkSecondFactor(ctx, ctx.db, userId, code, devices).catch(onField('code'));
  if (result !== 'good') throw refused('code', result, code);
  await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ totp_enabled_at: null, totp_secret_enc: null, totp_last_step: null }).where('id', '=', userId).execute();
    await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await tx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
    await queueMail(tx, userId, 'two_factor_disabled');
  });
}

/** The first login step passed for a 2FA user: a challenge (5 minutes, 5 tries) instead of a token. */
export async function startLoginChallenge(ctx: AppContext, db: Executor, userId: bigint): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db
    .insertInto('login_challenges')
    .values({ user_id: userId, challenge_hash: challengeHash(ctx.secret, id), attempts: 0, expires_at: new Date(ctx.now().getTime() + CHALLENGE_TTL_MS) })
    .execute();
  return id;
}

/**
 * The second login step. The try is claimed atomically before the code is checked (parallel
 * guesses get 5 in all); a right code uses the challenge up, once. Returns the user to sign in.
 */
export async function completeLoginChallenge(ctx: AppContext, challengeId: string, code: string, devices: Device[] = []): Promise<bigint> {
  const claimed = await sql<{ id: bigint; user_id: bigint }>`
    update login_challenges set attempts = attempts + 1
    where challenge_hash = ${challengeHash(ctx.secret, challengeId)} and used_at is null and attempts < ${OTP_MAX_TRIES} and expires_at > ${ctx.now()}
    returning id, user_id`.execute(ctx.db);
  const row = claimed.rows[0];
  if (!row) throw new AppError('BAD_REQUEST', INVALID_CODE_MESSAGE);
  const result = await checkSecondFactor(ctx, ctx.db, row.user_id, code, devices).catch(onField('code'));
  if (result !== 'good') throw refused('code', result, code);
  const used = await ctx.db
    .updateTable('login_challenges')
    .set({ used_at: ctx.now() })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) throw new AppError('BAD_REQUEST', INVALID_CODE_MESSAGE);
  return row.user_id;
}
