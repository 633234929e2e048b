import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table support_tickets (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id),
      type text not null check (type in ('general', 'technical', 'withdrawal', 'deposit', 'staking')),
      message text not null,
      status text not null default 'open' check (status in ('open', 'closed')),
      admin_remark text,
      closed_by bigint references users(id),
      closed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index support_tickets_user_id_idx on support_tickets (user_id, created_at desc)`.execute(db);
  await sql`create index support_tickets_status_idx on support_tickets (status, created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table support_tickets`.execute(db);
}
