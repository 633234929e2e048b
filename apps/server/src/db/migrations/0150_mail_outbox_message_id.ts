import { sql, type Kysely } from 'kysely';

/**
 * Mail is sent at least once: a process that dies between the SMTP server's acceptance and the
 * 'sent' mark sends the mail again after its lease. Each outbox row gets a token of its own, sent
 * as the mail's Message-ID on every try, so mail clients collapse such duplicates (issue 30).
 * A code mail whose code died before it could go out (a newer code, the 10 minutes over) is
 * 'expired' rather than sent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox add column message_token uuid not null default gen_random_uuid()`.execute(db);
  await sql`alter table mail_outbox drop constraint mail_outbox_status_check`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_status_check check (status in ('pending', 'sent', 'failed', 'expired'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update mail_outbox set status = 'failed' where status = 'expired'`.execute(db);
  await sql`alter table mail_outbox drop constraint mail_outbox_status_check`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_status_check check (status in ('pending', 'sent', 'failed'))`.execute(db);
  await sql`alter table mail_outbox drop column message_token`.execute(db);
}
