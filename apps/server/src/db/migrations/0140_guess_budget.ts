import { sql, type Kysely } from 'kysely';

/**
 * One guess budget per account (server design, section 9; issue 29):
 * - every challenge belongs to the e-mail it was asked for (`owner_key`, the keyed HMAC of the
 *   normalized e-mail), real or decoy alike, so a new challenge ends every earlier one of that
 *   e-mail whichever way it was made; `decoy` marks one that mails nobody and never verifies (it
 *   keeps its account's id when the e-mail has one, so the owner can be told); `code_expires_at`
 *   is when its code stops being accepted (null: it has none), since a code may outlive the
 *   challenge that mailed it;
 * - `guess_budget`, one row per e-mail key: the times of the code comparisons of the last 24 hours
 *   (`slots`, claimed before each comparison), when a code was last mailed, when the owner was last
 *   told the budget ran out. It replaces the per-user TOTP lock (`users.totp_failures`,
 *   `users.totp_locked_until`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table otp_challenges add column owner_key text`.execute(db);
  await sql`alter table otp_challenges add column decoy boolean not null default false`.execute(db);
  await sql`alter table otp_challenges add column code_expires_at timestamptz`.execute(db);
  // Challenges live 10 minutes: those in flight keep an owner of their own ('user:<id>', the HMAC
  // key needs the secret) until they expire, so for those minutes a user may hold a live one beside a new one.
  await sql`update otp_challenges set owner_key = coalesce(decoy_key, 'user:' || user_id::text), decoy = (user_id is null),
    code_expires_at = case when user_id is null then null else expires_at end`.execute(db);
  await sql`alter table otp_challenges alter column owner_key set not null`.execute(db);
  await sql`create index otp_challenges_owner_key_idx on otp_challenges (owner_key, id)`.execute(db);
  await sql`alter table otp_challenges drop constraint otp_challenges_owner_check`.execute(db);
  await sql`drop index otp_challenges_decoy_key_idx`.execute(db);
  await sql`alter table otp_challenges drop column decoy_key`.execute(db);
  await sql`alter table otp_challenges add constraint otp_challenges_decoy_check check (decoy or user_id is not null)`.execute(db);

  await sql`
    create table guess_budget (
      owner_key text primary key,
      slots timestamptz[] not null default '{}',
      mailed_at timestamptz,
      alerted_at timestamptz
    )`.execute(db);

  await sql`alter table users drop column totp_failures`.execute(db);
  await sql`alter table users drop column totp_locked_until`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column totp_failures integer not null default 0`.execute(db);
  await sql`alter table users add column totp_locked_until timestamptz`.execute(db);
  await sql`drop table guess_budget`.execute(db);
  await sql`alter table otp_challenges drop constraint otp_challenges_decoy_check`.execute(db);
  await sql`alter table otp_challenges add column decoy_key text`.execute(db);
  // A decoy of a registered e-mail has both an account and a key; before 0140 it had no account.
  await sql`update otp_challenges set decoy_key = owner_key, user_id = null where decoy`.execute(db);
  await sql`alter table otp_challenges add constraint otp_challenges_owner_check check ((user_id is null) <> (decoy_key is null))`.execute(db);
  await sql`create index otp_challenges_decoy_key_idx on otp_challenges (decoy_key) where decoy_key is not null`.execute(db);
  await sql`drop index otp_challenges_owner_key_idx`.execute(db);
  for (const c of ['owner_key', 'decoy', 'code_expires_at']) await sql`alter table otp_challenges drop column ${sql.ref(c)}`.execute(db);
}
