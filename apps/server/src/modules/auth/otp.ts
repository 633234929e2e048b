import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { INVALID_CODE_MESSAGE, OTP_MAX_TRIES, OTP_RESEND_SECONDS, OTP_TOO_MANY_MESSAGE, OTP_VALID_SECONDS } from '@app/core';
import { sql, type Generated, type Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor, Id, Timestamp, Tx } from '../../db/types';
import { AppError } from '../../lib/errors';
import { deviceKey, deviceOfUser, type Device } from './device';
import { claimMailSlot, compareUnderBudget } from './guess-budget';

/** What a mailed code is for: e-mail verification, a login past the failed-login back-off, or a password reset. */
export type OtpPurpose = 'verify' | 'login' | 'reset';

export interface OtpChallengesTable {
  id: Id;
  /** the e-mail's key (emailKey): every challenge of one e-mail, real or decoy, has one owner (migration 0140) */
  owner_key: string;
  /** the account of the e-mail, when it has one (a decoy of an unknown e-mail has none) */
  user_id: bigint | null;
  /** mails nobody and never verifies: an answer that must look like a real challenge */
  decoy: Generated<boolean>;
  access_id_hash: string;
  otp_hash: string;
  /** when the code in otp_hash stops being accepted; null when it holds no code */
  code_expires_at: Timestamp | null;
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
export { emailKey } from './email-key';

/**
 * Whom a challenge is for. Every challenge belongs to its e-mail (`key`), so whatever made it
 * (a right or a wrong password, a registered or an unknown e-mail) it ends the earlier ones of that
 * e-mail the same way. `userId` is the account of the e-mail when there is one (also on a decoy,
 * so the owner can be told when the guess budget runs out); `real` says a code may be mailed and
 * accepted. A decoy (real false) walks the same steps and writes the same rows, with no code.
 */
export interface ChallengeOwner {
  key: string;
  userId: bigint | null;
  real: boolean;
}

type Challenge = Selectable<OtpChallengesTable>;

/** Serializes challenge issue per e-mail: a transaction lock on its key (no row needed, so known and unknown e-mails take the same lock). */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx);
}

/** The e-mail's newest challenge. */
export const newestOf = (db: Executor, key: string) =>
  db.selectFrom('otp_challenges').selectAll().where('owner_key', '=', key).orderBy('id', 'desc').limit(1).executeTakeFirst();

const isLive = (c: Challenge, now: Date) => !c.dead && c.used_at === null && c.attempts < OTP_MAX_TRIES && c.expires_at > now;
const waitRunning = (c: Challenge, now: Date) => c.created_at.getTime() + OTP_RESEND_SECONDS * 1000 > now.getTime();

/**
 * A new challenge (and access_id) for the owner; the code to mail, if any. The rules (server design,
 * section 9, and "One guess budget per account"):
 * - While the e-mail's newest challenge of this purpose is live and younger than the resend wait,
 *   the new one takes it over (same tries used, same created and expiry times); otherwise it starts
 *   afresh. Either way every earlier challenge of the e-mail dies: one live challenge per e-mail.
 * - A real owner is mailed a fresh code when the challenge starts afresh (or took over one with no
 *   code), but never twice within OTP_RESEND_SECONDS for one e-mail, whatever the route and even if
 *   the newest challenge is dead (claimMailSlot). When no mail may go, the code of the newest
 *   challenge of this purpose is carried over while it is still valid: the code already in the
 *   mailbox then works with the new access_id. With nothing to carry, a new code is mailed when
 *   the wait ends (`delayMs` from now; the code is valid 10 minutes from then).
 * - A decoy takes the same steps with the same statements (the mail slot claim changing nothing).
 * Callers run it in a transaction; `newest` is given when the caller read it before deleting rows.
 */
export async function issueChallenge(
  ctx: AppContext,
  tx: Tx,
  owner: ChallengeOwner,
  purpose: OtpPurpose,
  given?: { newest: Challenge | undefined },
): Promise<{ accessId: string; code: string | null; delayMs: number }> {
  await lockKey(tx, owner.key);
  const now = ctx.now();
  const newest = given ? given.newest : await newestOf(tx, owner.key);
  const takeover = newest !== undefined && newest.purpose === purpose && isLive(newest, now) && waitRunning(newest, now);
  const carried =
    newest !== undefined && newest.purpose === purpose && newest.used_at === null && newest.code_expires_at !== null && newest.code_expires_at > now;
  let code: string | null = null;
  let otpHash = carried ? newest.otp_hash : randomBytes(32).toString('hex'); // a random hash: no code matches it
  let codeExpiresAt = carried ? newest.code_expires_at : null;
  let expiresAt = takeover ? newest.expires_at : new Date(now.getTime() + OTP_VALID_SECONDS * 1000);
  // Inside the wait with no code in the mailbox to carry (another purpose's, or none), a new code
  // is mailed once when the wait ends (issue 46: it was never mailed, and the access id was dead).
  const sendAt = await claimMailSlot(ctx, tx, owner.key, owner.real && !(takeover && carried), !carried, now);
  if (sendAt) {
    code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    otpHash = hmac(ctx.secret, 'otp', code);
    codeExpiresAt = new Date(sendAt.getTime() + OTP_VALID_SECONDS * 1000);
    if (codeExpiresAt > expiresAt) expiresAt = codeExpiresAt;
  }
  // By the e-mail's key only, for a known and an unknown e-mail alike: one more condition for
  // known ones (their user id) made forgot-password measurably slower for them on PGlite.
  await tx.updateTable('otp_challenges').set({ dead: true }).where('owner_key', '=', owner.key).where('dead', '=', false).execute();
  const accessId = randomBytes(32).toString('base64url');
  await tx
    .insertInto('otp_challenges')
    .values({
      owner_key: owner.key,
      user_id: owner.userId,
      decoy: !owner.real,
      purpose,
      access_id_hash: accessIdHash(ctx.secret, accessId),
      otp_hash: otpHash,
      code_expires_at: codeExpiresAt,
      attempts: takeover ? newest.attempts : 0,
      created_at: takeover ? newest.created_at : now,
      expires_at: expiresAt,
    })
    .execute();
  return { accessId, code, delayMs: sendAt ? Math.max(0, sendAt.getTime() - now.getTime()) : 0 };
}

/**
 * Checks a code for a live challenge of the given purposes. The challenge's try is claimed first,
 * in one statement that also checks it is live (newest of its e-mail, unused, under 5 tries,
 * unexpired), so parallel guesses never get more than 5 comparisons per challenge; then a slot of
 * the e-mail's guess budget, or of the device's (device.ts) when the request comes from a device of
 * the account (429 past it, the right code included); only then is the code
 * compared. A right code marks the challenge used, once. Each step is a statement of its own on
 * the global handle, never inside a transaction an error would roll back: a wrong try stays counted.
 */
export async function consumeOtp(
  ctx: AppContext,
  accessId: string,
  otp: string,
  purposes: OtpPurpose[],
  devices: Device[] = [],
): Promise<{ userId: bigint; purpose: OtpPurpose }> {
  const db = ctx.db;
  const now = ctx.now();
  const claimed = await sql<Pick<Challenge, 'id' | 'owner_key' | 'user_id' | 'decoy' | 'otp_hash' | 'code_expires_at' | 'attempts' | 'purpose'>>`
    update otp_challenges c set attempts = c.attempts + 1, dead = (c.attempts + 1 >= ${OTP_MAX_TRIES})
    where c.access_id_hash = ${accessIdHash(ctx.secret, accessId)}
      and c.dead = false and c.used_at is null and c.attempts < ${OTP_MAX_TRIES} and c.expires_at > ${now}
      and c.purpose in (${sql.join(purposes)})
      and c.id = (select max(o.id) from otp_challenges o where o.owner_key = c.owner_key)
    returning c.id, c.owner_key, c.user_id, c.decoy, c.otp_hash, c.code_expires_at, c.attempts, c.purpose`.execute(db);
  const row = claimed.rows[0];
  if (!row) throw new AppError('BAD_REQUEST', OTP_INVALID);
  // Whose budget: the device's when this browser has signed in to the challenge's account before
  // (a decoy of a registered e-mail names the account too, so a wrong password changes nothing
  // here); otherwise the e-mail's, which anyone who knows the address can spend.
  const device = deviceOfUser(devices, row.user_id);
  const budget = { key: device ? deviceKey(device) : row.owner_key, userId: row.user_id };
  const result = await compareUnderBudget(ctx, db, budget, () => {
    const given = Buffer.from(hmac(ctx.secret, 'otp', otp), 'hex');
    const match = timingSafeEqual(given, Buffer.from(row.otp_hash, 'hex'));
    // A decoy, or a code past its time, is compared like any other and never accepted.
    return match && !row.decoy && row.user_id !== null && row.code_expires_at !== null && new Date(row.code_expires_at) > now ? 'good' : 'wrong';
  });
  if (result !== 'good') throw new AppError('BAD_REQUEST', row.attempts >= OTP_MAX_TRIES ? OTP_TOO_MANY : OTP_WRONG);
  const used = await db
    .updateTable('otp_challenges')
    .set({ dead: true, used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  if (!used) throw new AppError('BAD_REQUEST', OTP_INVALID);
  return { userId: row.user_id!, purpose: row.purpose };
}

/**
 * resend-otp: a new challenge for the same e-mail and purpose. Only a live access_id may ask (else
 * 400 'Invalid or expired code', nothing written); the 300 s wait runs per e-mail, from its newest
 * challenge. Runs in a transaction that holds the e-mail's lock, so two resends cannot both pass
 * the wait. A decoy gets the same answers and a new decoy access_id, and no code.
 */
export async function replaceOtp(
  ctx: AppContext,
  tx: Tx,
  accessId: string,
): Promise<{ userId: bigint | null; accessId: string; code: string | null; delayMs: number; purpose: OtpPurpose }> {
  const now = ctx.now();
  const row = await tx
    .selectFrom('otp_challenges as c')
    .select(['c.owner_key', 'c.user_id', 'c.decoy', 'c.purpose'])
    .where('c.access_id_hash', '=', accessIdHash(ctx.secret, accessId))
    .where('c.dead', '=', false)
    .where('c.used_at', 'is', null)
    .where('c.attempts', '<', OTP_MAX_TRIES)
    .where('c.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) throw new AppError('BAD_REQUEST', OTP_INVALID);
  await lockKey(tx, row.owner_key);
  const newest = await newestOf(tx, row.owner_key);
  // Re-checked under the lock: a resend (or any new challenge of the e-mail) that raced ahead has replaced this id.
  if (newest?.access_id_hash !== accessIdHash(ctx.secret, accessId)) throw new AppError('BAD_REQUEST', OTP_INVALID);
  if (waitRunning(newest, now)) throw new AppError('RATE_LIMITED', 'Please wait before requesting a new OTP');
  const next = await issueChallenge(ctx, tx, { key: row.owner_key, userId: row.user_id, real: !row.decoy }, row.purpose, { newest });
  return { userId: row.decoy ? null : row.user_id, purpose: row.purpose, ...next };
}

/**
 * Whether a code can still be used by its account: the code of a live, real challenge of theirs
 * (not dead or used, under 5 tries, the code itself within its 10 minutes). A queued code mail is
 * sent only while this holds (a newer code, or the 10 minutes over, make it pointless).
 */
export async function isCodeLive(ctx: AppContext, userId: bigint, code: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('otp_challenges')
    .select('id')
    .where('user_id', '=', userId)
    .where('decoy', '=', false)
    .where('otp_hash', '=', hmac(ctx.secret, 'otp', code))
    .where('dead', '=', false)
    .where('used_at', 'is', null)
    .where('attempts', '<', OTP_MAX_TRIES)
    .where('code_expires_at', '>', ctx.now())
    .executeTakeFirst();
  return row !== undefined;
}
