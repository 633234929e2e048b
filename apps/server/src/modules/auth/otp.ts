import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_MAX_TRIES, OTP_RESEND_SECONDS, OTP_VALID_SECONDS } from '@app/core';
import { sql, type Generated } from 'kysely';
import type { Executor, Id, Timestamp } from '../../db/types';
import { AppError } from '../../lib/errors';

export interface OtpChallengesTable {
  id: Id;
  user_id: bigint;
  access_id_hash: string;
  otp_hash: string;
  attempts: Generated<number>;
  dead: Generated<boolean>;
  created_at: Timestamp;
  expires_at: Timestamp;
}
declare module '../../db/types' {
  interface Database {
    otp_challenges: OtpChallengesTable;
  }
}

export const OTP_INVALID = 'OTP has expired or is invalid. Please request a new one.';

const hmac = (secret: string, purpose: string, value: string) => createHmac('sha256', secret).update(`${purpose}:${value}`).digest('hex');

/** Creates a challenge: a random access_id for the client and a 6-digit code for the mail. */
export async function issueOtp(db: Executor, secret: string, userId: bigint): Promise<{ accessId: string; otp: string }> {
  const accessId = randomBytes(32).toString('base64url');
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .insertInto('otp_challenges')
    .values({
      user_id: userId,
      access_id_hash: hmac(secret, 'access', accessId),
      otp_hash: hmac(secret, 'otp', otp),
      expires_at: new Date(Date.now() + OTP_VALID_SECONDS * 1000),
    })
    .execute();
  return { accessId, otp };
}

async function findChallenge(db: Executor, secret: string, accessId: string) {
  // Inside the resend transaction: the row lock stops two resends racing for one access_id.
  return db.selectFrom('otp_challenges').selectAll().where('access_id_hash', '=', hmac(secret, 'access', accessId)).forUpdate().executeTakeFirst();
}

/**
 * Checks a code. A wrong code counts an attempt; the fifth kills the access_id, after which even
 * the right code fails. The right code claims the challenge once (it dies: one use only).
 * Each step is one atomic statement on the global handle, never inside a transaction that an
 * error would roll back: a wrong attempt must stay counted.
 */
export async function consumeOtp(db: Executor, secret: string, accessId: string, otp: string): Promise<bigint> {
  const row = await db.selectFrom('otp_challenges').selectAll().where('access_id_hash', '=', hmac(secret, 'access', accessId)).executeTakeFirst();
  if (!row || row.dead || row.expires_at.getTime() < Date.now()) throw new AppError('BAD_REQUEST', OTP_INVALID);
  const given = Buffer.from(hmac(secret, 'otp', otp), 'hex');
  const expected = Buffer.from(row.otp_hash, 'hex');
  if (!timingSafeEqual(given, expected)) {
    const counted = await db
      .updateTable('otp_challenges')
      .set({ attempts: sql<number>`attempts + 1`, dead: sql<boolean>`attempts + 1 >= ${OTP_MAX_TRIES}` })
      .where('id', '=', row.id)
      .returning(['attempts'])
      .executeTakeFirst();
    const attempts = counted?.attempts ?? OTP_MAX_TRIES;
    throw new AppError('BAD_REQUEST', attempts >= OTP_MAX_TRIES ? 'Too many wrong attempts. Please request a new OTP.' : 'Invalid OTP');
  }
  const claimed = await db.updateTable('otp_challenges').set({ dead: true }).where('id', '=', row.id).where('dead', '=', false).returning('user_id').executeTakeFirst();
  if (!claimed) throw new AppError('BAD_REQUEST', OTP_INVALID);
  return claimed.user_id;
}

/** A new challenge replacing the old one, refused (429) before 300 s since the old code was sent. */
export async function replaceOtp(db: Executor, secret: string, accessId: string): Promise<{ userId: bigint; accessId: string; otp: string }> {
  const row = await findChallenge(db, secret, accessId);
  if (!row) throw new AppError('BAD_REQUEST', OTP_INVALID);
  const waitMs = row.created_at.getTime() + OTP_RESEND_SECONDS * 1000 - Date.now();
  if (waitMs > 0) throw new AppError('RATE_LIMITED', 'Please wait before requesting a new OTP');
  await db.updateTable('otp_challenges').set({ dead: true }).where('id', '=', row.id).execute();
  const next = await issueOtp(db, secret, row.user_id);
  return { userId: row.user_id, ...next };
}

/** Every earlier challenge of the user dies when a new one is sent at login. */
export async function killUserOtps(db: Executor, userId: bigint): Promise<void> {
  await db.updateTable('otp_challenges').set({ dead: true }).where('user_id', '=', userId).where('dead', '=', false).execute();
}
