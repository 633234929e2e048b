import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { INVALID_CODE_MESSAGE, OTP_MAX_TRIES, OTP_RESEND_SECONDS, OTP_TOO_MANY_MESSAGE, OTP_VALID_SECONDS } from '@app/core';
import { sql, type Generated } from 'kysely';
import type { Executor, Id, Timestamp, Tx } from '../../db/types';
import { AppError } from '../../lib/errors';

/** What a mailed code is for: e-mail verification, a login past the failed-login back-off, or a password reset. */
export type OtpPurpose = 'verify' | 'login' | 'reset';

export interface OtpChallengesTable {
  id: Id;
  /** null for a decoy: a challenge of an e-mail that gets no code (see decoy_key) */
  user_id: bigint | null;
  /** keyed HMAC of the normalized e-mail of a decoy challenge (migration 0136); null for a real one */
  decoy_key: string | null;
  access_id_hash: string;
  otp_hash: string;
  attempts: Generated<number>;
  dead: Generated<boolean>;
  purpose: Generated<OtpPurpose>;
  used_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}
declare module '../../db/types' {
  interface Database {
    otp_challenges: OtpChallengesTable;
  }
}

export const OTP_INVALID = INVALID_CODE_MESSAGE;
export const OTP_WRONG = 'Invalid OTP';
export const OTP_TOO_MANY = OTP_TOO_MANY_MESSAGE;

const hmac = (secret: string, purpose: string, value: string) => createHmac('sha256', secret).update(`${purpose}:${value}`).digest('hex');
export const accessIdHash = (secret: string, accessId: string) => hmac(secret, 'access', accessId);
/** The key of an e-mail (trimmed, lower-cased) for decoys, failed-login counts and the per-e-mail limit: no e-mail is stored in clear. */
export const emailKey = (secret: string, email: string) => hmac(secret, 'email', email.trim().toLowerCase());

/**
 * Whose challenge it is: a user's, or a decoy's. A decoy stands for an e-mail that must get the
 * same answers as a registered one without any mail (an unknown e-mail, a wrong password in
 * back-off, forgot-password for an account that gets no code): it lives in the same table under
 * the same rules, with a code hash no code matches, and at most one row per e-mail.
 */
export type OtpOwner = { userId: bigint; decoyKey?: undefined } | { decoyKey: string; userId?: undefined };

export const ownerOf = (row: { user_id: bigint | null; decoy_key: string | null }): OtpOwner =>
  row.user_id !== null ? { userId: row.user_id } : { decoyKey: row.decoy_key! };

/** Serializes challenge issue per owner: the user's row lock, or a transaction lock on the decoy's key. */
export async function lockOwner(tx: Tx, owner: OtpOwner): Promise<void> {
  if (owner.userId !== undefined) return lockUser(tx, owner.userId);
  await sql`select pg_advisory_xact_lock(hashtextextended(${owner.decoyKey}, 0))`.execute(tx);
}

/** The owner's challenges, newest first. */
export const challengesOf = (db: Executor, owner: OtpOwner) =>
  db
    .selectFrom('otp_challenges')
    .selectAll()
    .where((eb) => (owner.userId !== undefined ? eb('user_id', '=', owner.userId) : eb('decoy_key', '=', owner.decoyKey)))
    .orderBy('id', 'desc');

/**
 * A decoy challenge with a fresh access_id. The decoy's earlier rows are deleted (a dead row and a
 * missing one answer alike), so a decoy never has more than one row; the clean-up job removes it
 * a day after it expires, like any challenge. `from` carries over a live challenge's code state.
 */
export async function issueDecoy(
  tx: Tx,
  secret: string,
  decoyKey: string,
  purpose: OtpPurpose,
  from?: { attempts: number; created_at: Date; expires_at: Date },
): Promise<string> {
  await tx.deleteFrom('otp_challenges').where('decoy_key', '=', decoyKey).execute();
  const accessId = randomBytes(32).toString('base64url');
  await tx
    .insertInto('otp_challenges')
    .values({
      decoy_key: decoyKey,
      purpose,
      access_id_hash: accessIdHash(secret, accessId),
      // a random hash: no 6-digit code matches it, yet every guess is compared and counted
      otp_hash: randomBytes(32).toString('hex'),
      attempts: from?.attempts ?? 0,
      created_at: from?.created_at ?? new Date(),
      expires_at: from?.expires_at ?? new Date(Date.now() + OTP_VALID_SECONDS * 1000),
    })
    .execute();
  return accessId;
}

/**
 * Creates a challenge (a random access_id for the client and a 6-digit code for the mail) and
 * kills every other challenge of the user: one live challenge per user (server design, section 9).
 * Callers hold the user's row lock (lockUser) so two issues for one user serialize.
 */
export async function issueOtp(db: Executor, secret: string, userId: bigint, purpose: OtpPurpose = 'verify'): Promise<{ accessId: string; otp: string }> {
  await db.updateTable('otp_challenges').set({ dead: true }).where('user_id', '=', userId).where('dead', '=', false).execute();
  const accessId = randomBytes(32).toString('base64url');
  const otp = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .insertInto('otp_challenges')
    .values({
      user_id: userId,
      purpose,
      access_id_hash: accessIdHash(secret, accessId),
      otp_hash: hmac(secret, 'otp', otp),
      expires_at: new Date(Date.now() + OTP_VALID_SECONDS * 1000),
    })
    .execute();
  return { accessId, otp };
}

/** Serializes challenge issue per user (resend, login, reset): the user's row lock. */
export async function lockUser(tx: Tx, userId: bigint): Promise<void> {
  await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
}

/**
 * Checks a code for a live challenge of the given purposes. The attempt is claimed first, in one
 * statement that also checks the challenge is live (newest of its user, unused, under 5 tries,
 * under 10 minutes), so parallel guesses never get more than 5 comparisons in all. A right code
 * then marks the challenge used, once. Each step is a statement of its own on the global handle,
 * never inside a transaction an error would roll back: a wrong attempt stays counted.
 */
export async function consumeOtp(
  db: Executor,
  secret: string,
  accessId: string,
  otp: string,
  purposes: OtpPurpose[],
): Promise<{ userId: bigint; purpose: OtpPurpose }> {
  const claimed = await sql<{ id: bigint; user_id: bigint | null; otp_hash: string; attempts: number; purpose: OtpPurpose }>`
    update otp_challenges c set attempts = c.attempts + 1, dead = (c.attempts + 1 >= ${OTP_MAX_TRIES})
    where c.access_id_hash = ${accessIdHash(secret, accessId)}
      and c.dead = false and c.used_at is null and c.attempts < ${OTP_MAX_TRIES} and c.expires_at > now()
      and c.purpose in (${sql.join(purposes)})
      and c.id = (select max(o.id) from otp_challenges o where o.user_id = c.user_id or o.decoy_key = c.decoy_key)
    returning c.id, c.user_id, c.otp_hash, c.attempts, c.purpose`.execute(db);
  const row = claimed.rows[0];
  if (!row) throw new AppError('BAD_REQUEST', OTP_INVALID);
  const given = Buffer.from(hmac(secret, 'otp', otp), 'hex');
  // A decoy's hash matches no code, so it always ends here, counted like a real guess.
  if (!timingSafeEqual(given, Buffer.from(row.otp_hash, 'hex')) || row.user_id === null) {
    throw new AppError('BAD_REQUEST', row.attempts >= OTP_MAX_TRIES ? OTP_TOO_MANY : OTP_WRONG);
  }
  const used = await db
    .updateTable('otp_challenges')
    .set({ dead: true, used_at: new Date() })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  if (!used) throw new AppError('BAD_REQUEST', OTP_INVALID);
  return { userId: row.user_id, purpose: row.purpose };
}

/**
 * A new challenge for the same owner and purpose. Only a live access_id may ask (else 400 'Invalid
 * or expired code', nothing written); the 300 s wait runs per owner, from their newest challenge.
 * Runs in a transaction that holds the owner's lock, so two resends cannot both pass the wait. A
 * decoy gets the same answers and a new decoy access_id, and no code (`otp` null: nothing to mail).
 */
export async function replaceOtp(
  tx: Tx,
  secret: string,
  accessId: string,
): Promise<{ userId: bigint | null; accessId: string; otp: string | null; purpose: OtpPurpose }> {
  const row = await tx
    .selectFrom('otp_challenges as c')
    .select(['c.user_id', 'c.decoy_key', 'c.purpose'])
    .where('c.access_id_hash', '=', accessIdHash(secret, accessId))
    .where('c.dead', '=', false)
    .where('c.used_at', 'is', null)
    .where('c.attempts', '<', OTP_MAX_TRIES)
    .where('c.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) throw new AppError('BAD_REQUEST', OTP_INVALID);
  const owner = ownerOf(row);
  await lockOwner(tx, owner);
  const newest = await challengesOf(tx, owner).limit(1).executeTakeFirst();
  // Re-checked under the lock: a resend that raced ahead has replaced this id.
  if (newest?.access_id_hash !== accessIdHash(secret, accessId)) throw new AppError('BAD_REQUEST', OTP_INVALID);
  if (newest.created_at.getTime() + OTP_RESEND_SECONDS * 1000 > Date.now()) throw new AppError('RATE_LIMITED', 'Please wait before requesting a new OTP');
  if (owner.userId === undefined) return { userId: null, purpose: row.purpose, otp: null, accessId: await issueDecoy(tx, secret, owner.decoyKey, row.purpose) };
  const next = await issueOtp(tx, secret, owner.userId, row.purpose);
  return { userId: owner.userId, purpose: row.purpose, ...next };
}

/**
 * Whether a code can still be used by its user: it is the code of their live challenge (not dead
 * or used, under 5 tries, within its 10 minutes). A queued code mail is sent only while this holds
 * (a newer code, or the 10 minutes over, make it pointless).
 */
export async function isCodeLive(db: Executor, secret: string, userId: bigint, otp: string): Promise<boolean> {
  const row = await db
    .selectFrom('otp_challenges')
    .select('id')
    .where('user_id', '=', userId)
    .where('otp_hash', '=', hmac(secret, 'otp', otp))
    .where('dead', '=', false)
    .where('used_at', 'is', null)
    .where('attempts', '<', OTP_MAX_TRIES)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row !== undefined;
}

/** Seconds until this user may be sent another code (0 when now). */
export async function resendWaitSeconds(db: Executor, userId: bigint): Promise<number> {
  const newest = await db.selectFrom('otp_challenges').select('created_at').where('user_id', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!newest) return 0;
  return Math.max(0, Math.ceil((newest.created_at.getTime() + OTP_RESEND_SECONDS * 1000 - Date.now()) / 1000));
}
