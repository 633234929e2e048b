import { sql } from 'kysely';
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
 * Wrong passwords in a row are counted per e-mail, not per account, so an unknown e-mail enters
 * the back-off exactly like a registered one. A count is forgotten this long after its last wrong
 * password (for every e-mail alike), which bounds the table by the e-mails tried in that time.
 */
export const LOGIN_FAILURES_KEEP_DAYS = 30;
const keep = sql<Date>`now() - make_interval(days => ${LOGIN_FAILURES_KEEP_DAYS})`;

/** Wrong passwords in a row for this e-mail (0 when none within the keep period). */
export async function loginFailures(db: Executor, secret: string, email: string): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select('failures')
    .where('email_key', '=', emailKey(secret, email))
    .where('last_failed_at', '>', keep)
    .executeTakeFirst();
  return row?.failures ?? 0;
}

/** Counts a wrong password (one atomic upsert) and drops a few counts past the keep period. */
export async function countLoginFailure(db: Executor, secret: string, email: string): Promise<void> {
  await sql`
    insert into login_failures as f (email_key, failures, last_failed_at) values (${emailKey(secret, email)}, 1, now())
    on conflict (email_key) do update
      set failures = case when f.last_failed_at > ${keep} then f.failures + 1 else 1 end, last_failed_at = now()`.execute(db);
  await sql`
    delete from login_failures where email_key in (
      select email_key from login_failures where last_failed_at <= ${keep} order by last_failed_at limit 100)`.execute(db);
}

/** A good sign-in (password, mailed code or reset) ends the back-off of the user's e-mail. */
export async function clearLoginFailures(db: Executor, secret: string, userId: bigint): Promise<void> {
  const user = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (user) await db.deleteFrom('login_failures').where('email_key', '=', emailKey(secret, user.email)).execute();
}
