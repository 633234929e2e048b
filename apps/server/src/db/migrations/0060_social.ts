import { sql, type Kysely } from 'kysely';

/**
 * Social sign-in (server design, section 5):
 * - social_logins: one row per trip to a provider (state hash, nonce, PKCE verifier), single use, 10 minutes;
 * - social_identities: which provider account belongs to which user;
 * - social_signups: a new social user waiting for the referral step (not a user yet), named by an
 *   HttpOnly cookie whose hash is stored here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table social_logins (
      id bigint generated always as identity primary key,
      state_hash text not null unique,
      provider text not null,
      nonce text not null,
      code_verifier text not null,
      ref text,
      used boolean not null default false,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`
    create table social_identities (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      provider text not null,
      subject text not null,
      email text,
      created_at timestamptz not null default now(),
      unique (provider, subject)
    )`.execute(db);
  await sql`create index social_identities_user_id_idx on social_identities (user_id)`.execute(db);
  await sql`
    create table social_signups (
      id bigint generated always as identity primary key,
      cookie_hash text not null unique,
      provider text not null,
      subject text not null,
      email text not null,
      name text not null,
      username text not null,
      email_verified boolean not null default false,
      user_id bigint references users(id) on delete set null,
      completed_at timestamptz,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table social_signups`.execute(db);
  await sql`drop table social_identities`.execute(db);
  await sql`drop table social_logins`.execute(db);
}
