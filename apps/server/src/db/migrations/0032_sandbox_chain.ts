import { sql, type Kysely } from 'kysely';

/**
 * The sandbox gateway's simulated chain. Kept in the database (not process memory) so every
 * server process and the CLI see the same transfers. A transfer's progress is derived from its
 * timestamps: confirming until confirmed_at, confirmed until settled_at, then final.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sandbox_chain_payments (
      id bigint generated always as identity (start with 9000000001) primary key,
      order_id text not null,
      pay_currency text not null,
      pay_address text not null unique,
      price_amount bigint not null,
      pay_amount bigint not null,
      valid_until timestamptz not null,
      received bigint not null default 0,
      tx_hash text,
      last_transfer_at timestamptz,
      confirmed_at timestamptz,
      settled_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sandbox_chain_payments`.execute(db);
}
