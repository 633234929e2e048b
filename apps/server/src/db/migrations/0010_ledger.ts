import { sql, type Kysely } from 'kysely';

/**
 * Double-entry ledger (server design, section 3). Every movement is one entry with postings that
 * sum to zero; each account caches its balance, and a user account can never go below zero.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ledger_accounts (
      id bigint generated always as identity primary key,
      user_id bigint references users(id),
      kind text not null,
      balance bigint not null default 0,
      created_at timestamptz not null default now(),
      constraint ledger_accounts_owner_kind_key unique nulls not distinct (user_id, kind),
      constraint ledger_accounts_user_balance_nonneg check (user_id is null or balance >= 0)
    )`.execute(db);
  await sql`
    create table ledger_entries (
      id bigint generated always as identity primary key,
      idempotency_key text not null unique,
      kind text not null,
      user_id bigint references users(id),
      memo text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index ledger_entries_user_id_idx on ledger_entries (user_id, created_at desc)`.execute(db);
  await sql`
    create table ledger_postings (
      id bigint generated always as identity primary key,
      entry_id bigint not null references ledger_entries(id),
      account_id bigint not null references ledger_accounts(id),
      amount bigint not null check (amount <> 0)
    )`.execute(db);
  await sql`create index ledger_postings_entry_id_idx on ledger_postings (entry_id)`.execute(db);
  await sql`create index ledger_postings_account_id_idx on ledger_postings (account_id)`.execute(db);
  // Running totals shown on the wallet and dashboard, kept in the same transaction as the entry
  // that changes them, so reads never re-add history.
  await sql`
    create table user_totals (
      user_id bigint primary key references users(id),
      total_deposited bigint not null default 0,
      total_staked bigint not null default 0,
      total_withdrawn bigint not null default 0,
      roi_income bigint not null default 0,
      referral_income bigint not null default 0,
      reward_income bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table user_totals, ledger_postings, ledger_entries, ledger_accounts`.execute(db);
}
