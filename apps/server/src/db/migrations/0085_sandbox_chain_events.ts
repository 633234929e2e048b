import { sql, type Kysely } from 'kysely';

/**
 * The sandbox chain's future steps (a transfer's confirmation and its settlement), each with the
 * time it is due. A job applies the due ones to the payment after any restart: a process that
 * stops between a transfer and its settlement used to lose the follow-up, which lived only in
 * timers (a top-up after partially_paid was then never credited).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sandbox_chain_events (
      id bigint generated always as identity primary key,
      chain_payment_id bigint not null references sandbox_chain_payments (id),
      kind text not null check (kind in ('confirm', 'settle')),
      due_at timestamptz not null,
      processed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sandbox_chain_events_due_idx on sandbox_chain_events (due_at) where processed_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sandbox_chain_events`.execute(db);
}
