import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/types';
import { emailKey } from './otp';

export interface LoginFailuresTable {
  /** keyed HMAC of the normalized e-mail (emailKey): registered or not, every e-mail alike */
  email_key: string;
  failures: number;
  last_failed_at: Date;
}
declare module '../../db/types' {
  interface Database {
    login_failures: LoginFailuresTable;
  }
}

/**
 * Wrong passwords in a row after which a login also needs a code mailed to the owner, and
 * change-password refuses every try (429). Past it a right and a wrong password, and an unknown
 * e-mail, get the same answer (a code 'was sent', with an access_id that answers resend and verify
 * like a real one), so guessing learns nothing, and the owner is never locked out: their password
 * plus the mailed code still sign them in. See docs/decisions/2026-11-23-login-back-off.md.
 */
export const LOGIN_BACKOFF_AFTER = 10;

/**
 * Wrong passwords in a row are counted per e-mail, not per account, so an unknown e-mail enters
 * the back-off exactly like a registered one. A count is forgotten this long after its last wrong
 * password (for every e-mail alike), which bounds the table by the e-mails tried in that time.
 */
export const LOGIN_FAILURES_KEEP_DAYS = 30;
const keepFrom = (now: Date) => new Date(now.getTime() - LOGIN_FAILURES_KEEP_DAYS * 86_400_000);

/** Wrong passwords in a row for this e-mail (0 when none within the keep period). */
export async function loginFailures(ctx: AppContext, email: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('login_failures')
    .select('failures')
    .where('email_key', '=', emailKey(ctx.secret, email))
    .where('last_failed_at', '>', keepFrom(ctx.now()))
    .executeTakeFirst();
  return row?.failures ?? 0;
}

/** Counts a wrong password (one atomic upsert) and drops a few counts past the keep period. */
export async function countLoginFailure(ctx: AppContext, email: string): Promise<void> {
  const now = ctx.now();
  const keep = keepFrom(now);
  await sql`
    insert into login_failures as f (email_key, failures, last_failed_at) values (${emailKey(ctx.secret, email)}, 1, ${now})
    on conflict (email_key) do update
      set failures = case when f.last_failed_at > ${keep} then f.failures + 1 else 1 end, last_failed_at = ${now}`.execute(ctx.db);
  await dropStaleLoginFailures(ctx, keep);
}

/**
 * Claims one password comparison for this e-mail BEFORE it happens (change-password; attack
 * report: counting after the comparison let parallel tries all pass the check and all compare).
 * One statement counts the try as a wrong one unless the e-mail is in back-off:
 *
 *     insert … on conflict (email_key) do update set failures = failures + 1 … where failures < 10 returning
 *
 * `INSERT … ON CONFLICT DO UPDATE … WHERE` locks the row and evaluates the condition on its newest
 * version, so parallel claims on PostgreSQL serialize and at most LOGIN_BACKOFF_AFTER wrong passwords
 * in a row are ever compared. False: the e-mail is in back-off, compare nothing (429). A right
 * password then clears the count (`clearLoginFailures`), which gives the claim back; a wrong one
 * leaves it counted (`dropStaleLoginFailures` for the housekeeping countLoginFailure does).
 */
export async function claimPasswordTry(ctx: AppContext, email: string): Promise<boolean> {
  const now = ctx.now();
  const keep = keepFrom(now);
  const claimed = await sql<{ failures: number }>`
    insert into login_failures as f (email_key, failures, last_failed_at) values (${emailKey(ctx.secret, email)}, 1, ${now})
    on conflict (email_key) do update
      set failures = case when f.last_failed_at > ${keep} then f.failures + 1 else 1 end, last_failed_at = ${now}
      where f.last_failed_at <= ${keep} or f.failures < ${LOGIN_BACKOFF_AFTER}
    returning f.failures`.execute(ctx.db);
  return claimed.rows.length > 0;
}

/** Drops a few counts past the keep period (bounded work per wrong password). */
export async function dropStaleLoginFailures(ctx: AppContext, keep = keepFrom(ctx.now())): Promise<void> {
  await sql`
    delete from login_failures where email_key in (
      select email_key from login_failures where last_failed_at <= ${keep} order by last_failed_at limit 100)`.execute(ctx.db);
}

/** A good sign-in (password, mailed code, reset or a right current password) ends the back-off of the user's e-mail. */
export async function clearLoginFailures(db: Executor, secret: string, userId: bigint): Promise<void> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (user) await db.deleteFrom('login_failures').where('email_key', '=', emailKey(secret, user.email)).execute();
}
