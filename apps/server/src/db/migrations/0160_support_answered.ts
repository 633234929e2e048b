import { sql, type Kysely } from 'kysely';

/**
 * Issue 32, item 20: support answers back. A ticket an admin replied to is 'answered' (waiting for
 * the user) until the user replies ('open' again, waiting for support) or it is closed; every
 * message after the first is a row of support_ticket_replies, by the user or an admin.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table support_tickets drop constraint if exists support_tickets_status_check`.execute(db);
  await sql`alter table support_tickets add constraint support_tickets_status_check check (status in ('open', 'answered', 'closed'))`.execute(db);
  await sql`
    create table support_ticket_replies (
      id bigint generated always as identity primary key,
      ticket_id bigint not null references support_tickets(id),
      author text not null check (author in ('user', 'admin')),
      author_id bigint not null references users(id),
      message text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index support_ticket_replies_ticket_idx on support_ticket_replies (ticket_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table support_ticket_replies`.execute(db);
  await sql`update support_tickets set status = 'open' where status = 'answered'`.execute(db);
  await sql`alter table support_tickets drop constraint if exists support_tickets_status_check`.execute(db);
  await sql`alter table support_tickets add constraint support_tickets_status_check check (status in ('open', 'closed'))`.execute(db);
}
