import { sql, type Kysely } from 'kysely';

/**
 * Account security (server design, section 9): challenges know their purpose and when they were
 * used; sessions say where they come from; TOTP two-factor with recovery codes and a second login
 * step; a per-account back-off on failed logins; and the mail outbox that security and money mail
 * go through.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table otp_challenges add column purpose text not null default 'verify'`.execute(db);
  await sql`alter table otp_challenges add column used_at timestamptz`.execute(db);
  await sql`create index otp_challenges_expires_at_idx on otp_challenges (expires_at)`.execute(db);

  await sql`alter table sessions add column last_used_at timestamptz`.execute(db);
  await sql`alter table sessions add column ip text`.execute(db);
  await sql`alter table sessions add column user_agent text`.execute(db);
  await sql`create index sessions_expires_at_idx on sessions (expires_at)`.execute(db);

  await sql`alter table users add column totp_secret_enc text`.execute(db);
  await sql`alter table users add column totp_enabled_at timestamptz`.execute(db);
  await sql`alter table users add column totp_last_step bigint`.execute(db);
  await sql`alter table users add column failed_logins integer not null default 0`.execute(db);
  await sql`alter table users add column totp_failures integer not null default 0`.execute(db);
  await sql`alter table users add column totp_locked_until timestamptz`.execute(db);
  await sql`create index users_unverified_idx on users (created_at) where email_verified_at is null`.execute(db);

  await sql`
    create table recovery_codes (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index recovery_codes_user_id_idx on recovery_codes (user_id)`.execute(db);

  await sql`
    create table login_challenges (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      challenge_hash text not null unique,
      attempts integer not null default 0,
      used_at timestamptz,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index login_challenges_expires_at_idx on login_challenges (expires_at)`.execute(db);

  await sql`
    create table mail_outbox (
      id bigint generated always as identity primary key,
      user_id bigint references users(id) on delete set null,
      to_email text not null,
      kind text not null,
      payload jsonb not null default '{}'::jsonb,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz
    )`.execute(db);
  await sql`create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The indexes up() put on tables older than it (the tests walk every down() and compare schemas).
  for (const index of ['users_unverified_idx', 'sessions_expires_at_idx', 'otp_challenges_expires_at_idx']) await sql`drop index ${sql.ref(index)}`.execute(db);
  await sql`drop table mail_outbox`.execute(db);
  await sql`drop table login_challenges`.execute(db);
  await sql`drop table recovery_codes`.execute(db);
  for (const c of ['totp_secret_enc', 'totp_enabled_at', 'totp_last_step', 'failed_logins', 'totp_failures', 'totp_locked_until'])
    await sql`alter table users drop column ${sql.ref(c)}`.execute(db);
  for (const c of ['last_used_at', 'ip', 'user_agent']) await sql`alter table sessions drop column ${sql.ref(c)}`.execute(db);
  for (const c of ['purpose', 'used_at']) await sql`alter table otp_challenges drop column ${sql.ref(c)}`.execute(db);
}
