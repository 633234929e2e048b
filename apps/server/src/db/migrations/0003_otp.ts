import { sql, type Kysely } from 'kysely';

/** One row per OTP sent; the client holds only the random access_id (stored hashed here). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table otp_challenges (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      access_id_hash text not null unique,
      otp_hash text not null,
      attempts integer not null default 0,
      dead boolean not null default false,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index otp_challenges_user_id_idx on otp_challenges (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table otp_challenges`.execute(db);
}
