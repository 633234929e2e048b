import { sql, type Kysely } from 'kysely';

/**
 * Issue 49: custody that tells the truth about its nodes and answers at scale.
 * - chain_node_state: per network, what the node last told us (its head and when that head was
 *   first seen) and when it last answered at all, or since when it fails and why. Health and the
 *   admin view read staleness from here instead of trusting a head that may be minutes old.
 * - custody_balances / custody_balance_runs: the token balances of our deposit addresses as a
 *   job read them (in batches, at one height), so the admin view never asks a node inside a request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table chain_node_state (
      network text primary key,
      head bigint,
      head_seen_at timestamptz,
      answered_at timestamptz,
      failing_since timestamptz,
      error text,
      error_at timestamptz
    )`.execute(db);
  await sql`
    create table custody_balances (
      network text not null,
      address text not null,
      balance numeric(78, 0) not null check (balance >= 0),
      at_block bigint,
      read_at timestamptz not null,
      primary key (network, address)
    )`.execute(db);
  await sql`create index custody_balances_holding on custody_balances (network, address) where balance > 0`.execute(db);
  await sql`
    create table custody_balance_runs (
      network text primary key,
      at_block bigint,
      read_at timestamptz,
      addresses integer not null default 0,
      duration_ms integer,
      error text,
      error_at timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table custody_balance_runs`.execute(db);
  await sql`drop table custody_balances`.execute(db);
  await sql`drop table chain_node_state`.execute(db);
}
