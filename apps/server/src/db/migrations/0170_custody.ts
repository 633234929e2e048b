import { sql, type Kysely } from 'kysely';

/**
 * The `chain` gateway (shared/design/custody.md, docs/custody.md): deposits received on the
 * operator's own addresses, derived from account-level xpubs, watched and credited by the server.
 *
 * - custody_accounts: the derivation index of each user, taken once from a sequence and never
 *   given to anyone else (a gap from a lost race is simply never used).
 * - custody_addresses: the addresses derived at that index, per family (one EVM address serves
 *   BSC and Polygon), 20 bytes as lowercase hex; unique, so no address can belong to two users.
 * - chain_cursors: per network, what the watcher has read whole (scanned_to), the credited line
 *   (final_height), the last head seen, and whether it is halted by a deep reorg.
 * - chain_blocks: the hashes of recent blocks the watcher has read (the top of each range, the
 *   blocks with deposits, the credited line), to notice forks.
 * - chain_observations: each Transfer of the configured token to one of our addresses, once per
 *   (network, block hash, tx, log index); its status says where it is on the way to the ledger
 *   (seen → credited; below_minimum and held wait for an admin; orphaned never counts), `note` why.
 * - payments: a third provider; a chain payment is credited in full, whatever was asked, so the
 *   cap on credited_amount applies to the two hosted gateways only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence custody_address_index_seq as integer minvalue 0 start with 0`.execute(db);
  await sql`
    create table custody_accounts (
      user_id bigint primary key references users(id),
      idx integer not null unique check (idx >= 0),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table custody_addresses (
      family text not null check (family in ('evm', 'tron')),
      address text not null check (address ~ '^0x[0-9a-f]{40}$'),
      user_id bigint not null references custody_accounts(user_id),
      idx integer not null,
      xpub text not null,
      created_at timestamptz not null default now(),
      primary key (family, address),
      unique (family, user_id),
      unique (family, idx)
    )`.execute(db);

  await sql`
    create table chain_cursors (
      network text primary key check (network in ('bsc', 'polygon', 'tron')),
      scanned_to bigint not null,
      final_height bigint not null,
      head bigint,
      finalized_tag bigint,
      head_at timestamptz,
      halted boolean not null default false,
      halted_reason text,
      halted_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table chain_blocks (
      network text not null,
      number bigint not null,
      hash text not null,
      primary key (network, number)
    )`.execute(db);
  await sql`
    create table chain_observations (
      id bigint generated always as identity primary key,
      network text not null check (network in ('bsc', 'polygon', 'tron')),
      block_number bigint not null,
      block_hash text not null,
      tx_hash text not null,
      log_index integer not null check (log_index >= 0),
      token text not null,
      from_address text not null,
      to_address text not null,
      user_id bigint not null references users(id),
      raw_amount numeric(78, 0) not null check (raw_amount >= 0),
      amount bigint not null check (amount >= 0),
      status text not null default 'seen' check (status in ('seen', 'credited', 'below_minimum', 'held', 'orphaned')),
      payment_id bigint references payments(id),
      seen_at timestamptz not null default now(),
      final_at timestamptz,
      orphaned_at timestamptz,
      credited_by bigint references users(id),
      note text,
      unique (network, block_hash, tx_hash, log_index)
    )`.execute(db);
  await sql`create index chain_observations_open_idx on chain_observations (network, block_number) where status = 'seen'`.execute(db);
  // The credit's check for the same transaction credited from another block.
  await sql`create index chain_observations_tx_idx on chain_observations (network, tx_hash)`.execute(db);
  await sql`create index chain_observations_user_idx on chain_observations (user_id, seen_at desc)`.execute(db);
  await sql`create index chain_observations_payment_idx on chain_observations (payment_id) where payment_id is not null`.execute(db);

  await sql`alter table payments drop constraint payments_provider_check`.execute(db);
  await sql`alter table payments add constraint payments_provider_check check (provider in ('sandbox', 'nowpayments', 'chain'))`.execute(db);
  await sql`alter table payments drop constraint payments_credited_range`.execute(db);
  await sql`
    alter table payments add constraint payments_credited_range
      check (credited_amount >= 0 and (provider = 'chain' or credited_amount <= price_amount))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table chain_observations`.execute(db);
  await sql`delete from payments where provider = 'chain'`.execute(db);
  await sql`alter table payments drop constraint payments_credited_range`.execute(db);
  await sql`alter table payments add constraint payments_credited_range check (credited_amount >= 0 and credited_amount <= price_amount)`.execute(db);
  await sql`alter table payments drop constraint payments_provider_check`.execute(db);
  await sql`alter table payments add constraint payments_provider_check check (provider in ('sandbox', 'nowpayments'))`.execute(db);
  await sql`drop table chain_blocks`.execute(db);
  await sql`drop table chain_cursors`.execute(db);
  await sql`drop table custody_addresses`.execute(db);
  await sql`drop table custody_accounts`.execute(db);
  await sql`drop sequence custody_address_index_seq`.execute(db);
}
