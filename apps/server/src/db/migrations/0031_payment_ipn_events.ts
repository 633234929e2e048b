import { sql, type Kysely } from 'kysely';

/**
 * Every authentic IPN, once: NOWPayments re-sends and reorders notifications, so an identical
 * body (same SHA-256 of its canonical form) is processed a single time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payment_ipn_events (
      id bigint generated always as identity primary key,
      provider text not null,
      provider_payment_id text not null,
      payment_status text not null,
      body_sha256 text not null,
      body jsonb not null,
      received_at timestamptz not null default now(),
      constraint payment_ipn_events_body_key unique (provider, body_sha256)
    )`.execute(db);
  await sql`create index payment_ipn_events_payment_idx on payment_ipn_events (provider, provider_payment_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payment_ipn_events`.execute(db);
}
