import { sql, type Kysely } from 'kysely';

/**
 * What the auth routes answer must not tell a registered e-mail from an unknown one
 * (docs/security.md, "E-mail enumeration"):
 * - a challenge may belong to no user: a decoy, keyed by a keyed HMAC of the normalized e-mail
 *   (`decoy_key`), so an unknown e-mail's access_id answers resend and verify like a real one;
 * - wrong passwords in a row are counted per e-mail (keyed HMAC), for every e-mail alike, and
 *   forgotten 30 days after the last one (`login_failures`; replaces `users.failed_logins`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table otp_challenges alter column user_id drop not null`.execute(db);
  await sql`alter table otp_challenges add column decoy_key text`.execute(db);
  await sql`alter table otp_challenges add constraint otp_challenges_owner_check check ((user_id is null) <> (decoy_key is null))`.execute(db);
  await sql`create index otp_challenges_decoy_key_idx on otp_challenges (decoy_key) where decoy_key is not null`.execute(db);
  await sql`
    create table login_failures (
      email_key text primary key,
      failures integer not null,
      last_failed_at timestamptz not null
    )`.execute(db);
  await sql`create index login_failures_last_failed_at_idx on login_failures (last_failed_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table login_failures`.execute(db);
  await sql`delete from otp_challenges where user_id is null`.execute(db);
  await sql`drop index otp_challenges_decoy_key_idx`.execute(db);
  await sql`alter table otp_challenges drop constraint otp_challenges_owner_check`.execute(db);
  await sql`alter table otp_challenges drop column decoy_key`.execute(db);
  await sql`alter table otp_challenges alter column user_id set not null`.execute(db);
}
