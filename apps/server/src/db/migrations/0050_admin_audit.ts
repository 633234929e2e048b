import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table admin_audit_log (
      id bigint generated always as identity primary key,
      admin_id bigint references users(id),
      action text not null,
      target_type text,
      target_id text,
      before jsonb,
      after jsonb,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index admin_audit_log_created_idx on admin_audit_log (created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table admin_audit_log`.execute(db);
}
