import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sessions (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index sessions_user_id_idx on sessions (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sessions`.execute(db);
}
