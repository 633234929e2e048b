import { sql, type Kysely } from 'kysely';

/**
 * Deposits through a payment gateway (server design, sections 4 and 6). One row per payment the
 * gateway knows; statuses follow NOWPayments and only move forward (status.ts). credited_amount
 * is what the ledger already holds for the payment, so each later report credits only the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table payments (
      id bigint generated always as identity primary key,
      user_id bigint not null references users(id),
      provider text not null check (provider in ('sandbox', 'nowpayments')),
      provider_payment_id text not null,
      order_id text,
      kind text not null check (kind in ('deposit', 'demo')),
      pay_currency text not null,
      price_amount bigint not null check (price_amount >= 0),
      pay_amount bigint not null check (pay_amount >= 0),
      pay_address text not null,
      window_end timestamptz not null,
      status text not null default 'waiting' check (status in
        ('waiting', 'confirming', 'confirmed', 'sending', 'partially_paid', 'finished', 'failed', 'refunded', 'expired')),
      actually_paid bigint not null default 0 check (actually_paid >= 0),
      confirmations integer not null default 0,
      tx_hash text,
      extra jsonb not null default '{}'::jsonb,
      credited_amount bigint not null default 0,
      parent_payment_id text,
      needs_review boolean not null default false,
      review_reason text,
      last_checked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint payments_provider_payment_id_key unique (provider, provider_payment_id),
      -- Never credit more than the user asked to deposit (an overpayment goes to review).
      constraint payments_credited_range check (credited_amount >= 0 and credited_amount <= price_amount)
    )`.execute(db);
  await sql`create index payments_user_id_idx on payments (user_id, created_at desc, id desc)`.execute(db);
  await sql`create index payments_order_id_idx on payments (order_id) where order_id is not null`.execute(db);
  // The poller's work list: open payments, least recently checked first.
  await sql`
    create index payments_open_idx on payments (last_checked_at nulls first)
    where status in ('waiting', 'confirming', 'confirmed', 'sending')`.execute(db);
  await sql`create index payments_review_idx on payments (created_at desc) where needs_review`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payments`.execute(db);
}
