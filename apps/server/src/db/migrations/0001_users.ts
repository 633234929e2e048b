import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id bigint generated always as identity primary key,
      name text not null,
      email text not null,
      username text not null unique,
      password_hash text,
      referrer_id bigint references users(id),
      status text not null default 'inactive' check (status in ('inactive', 'active', 'blocked')),
      is_admin boolean not null default false,
      email_verified_at timestamptz,
      active_date date,
      eligible_level integer not null default 0,
      avatar text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // E-mail is unique case-insensitively; usernames are stored uppercase.
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);
  await sql`create index users_referrer_id_idx on users (referrer_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table users`.execute(db);
}
