import { sql, type Kysely } from 'kysely';

/**
 * Payouts by the signer (custody.md section 6, issue 48).
 * - A withdrawal can be `approved` (handed to the signer) and `sent` (broadcast) before `completed`.
 * - `payout_nonce` is the nonce the server has on record for a sent payout: a report for another
 *   nonce is refused, a replacement keeps it. Two sent withdrawals of one network never share one.
 * - `payout_note`: the signer's held reason or why a transaction failed, for the admin.
 * - `signer_contacts`: the signer's last contact and the limits it used today (one row).
 * - `custody_sweeps`: every sweep of a deposit address the signer reported and the server found on
 *   chain (the token transfer final, from the address to the hot or cold wallet, for its amount):
 *   the reconciliation subtracts what left the deposit addresses this way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table withdrawals drop constraint withdrawals_status_check`.execute(db);
  await sql`alter table withdrawals add constraint withdrawals_status_check check (status in ('pending', 'approved', 'sent', 'completed', 'rejected'))`.execute(
    db,
  );
  await sql`
    alter table withdrawals
      add column payout_nonce bigint,
      add column payout_note text,
      add column approved_by bigint references users(id),
      add column approved_at timestamptz,
      add column sent_at timestamptz`.execute(db);
  await sql`alter table withdrawals add constraint withdrawals_sent_has_nonce check (status <> 'sent' or (payout_nonce is not null and tx_hash is not null))`.execute(
    db,
  );
  await sql`create unique index withdrawals_live_nonce on withdrawals (network, payout_nonce) where status = 'sent'`.execute(db);
  // The signer's and the confirming job's queue: small, read every few seconds.
  await sql`create index withdrawals_payout_queue on withdrawals (id) where status in ('approved', 'sent')`.execute(db);
  await sql`
    create table signer_contacts (
      id smallint primary key default 1 check (id = 1),
      last_contact_at timestamptz not null,
      limits jsonb not null default '[]'::jsonb,
      hot jsonb not null default '[]'::jsonb
    )`.execute(db);
  await sql`
    create table custody_sweeps (
      id bigint generated always as identity primary key,
      network text not null,
      address text not null,
      amount_raw numeric(78, 0) not null check (amount_raw > 0),
      destination text not null check (destination in ('hot', 'cold')),
      gas_tx text,
      token_tx text not null unique,
      block_number bigint not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table custody_sweeps`.execute(db);
  await sql`drop table signer_contacts`.execute(db);
  await sql`drop index withdrawals_payout_queue`.execute(db);
  await sql`drop index withdrawals_live_nonce`.execute(db);
  await sql`alter table withdrawals drop constraint withdrawals_sent_has_nonce`.execute(db);
  await sql`alter table withdrawals drop column payout_nonce, drop column payout_note, drop column approved_by, drop column approved_at, drop column sent_at`.execute(
    db,
  );
  await sql`alter table withdrawals drop constraint withdrawals_status_check`.execute(db);
  await sql`alter table withdrawals add constraint withdrawals_status_check check (status in ('pending', 'completed', 'rejected'))`.execute(db);
}
