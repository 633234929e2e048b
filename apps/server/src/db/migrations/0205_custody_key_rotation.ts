import { sql, type Kysely } from 'kysely';

/**
 * Key rotation for the chain gateway (issue 49, docs/custody.md "Changing the xpubs"). Until now a
 * user had one address per family for good, so a new `CUSTODY_EVM_XPUB` locked every existing user
 * out of deposits: the stored address no longer matched the configured key and the unique
 * (family, user_id) and (family, idx) allowed no second address.
 *
 * - custody_addresses.key_fingerprint: the hash160 identifier (hex) of the account xpub that derived
 *   the address. NULL on the rows made before (a migration imports nothing but kysely, so it cannot
 *   decode an xpub): the server fills them from the stored xpub text before it hands out an address
 *   under that key (custody/addresses.ts nextKeyIndex), and until then a NULL row is its xpub text's.
 * - a user has at most one address per key (not per family), and an index serves one address per key.
 * - custody_keys: every account key that has handed out addresses, with its own index sequence, so a
 *   new key's addresses start at 0 (wallets find them with their usual gap limit) and its first use
 *   is on record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table custody_addresses add column key_fingerprint text check (key_fingerprint ~ '^[0-9a-f]{40}$')`.execute(db);
  await sql`alter table custody_addresses drop constraint custody_addresses_family_user_id_key`.execute(db);
  await sql`alter table custody_addresses drop constraint custody_addresses_family_idx_key`.execute(db);
  // coalesce: a legacy row without a fingerprint is still one key's, the one its xpub text names.
  await sql`create unique index custody_addresses_key_user_key on custody_addresses (family, coalesce(key_fingerprint, xpub), user_id)`.execute(db);
  await sql`create unique index custody_addresses_key_idx_key on custody_addresses (family, coalesce(key_fingerprint, xpub), idx)`.execute(db);
  await sql`create index custody_addresses_user_idx on custody_addresses (user_id, family)`.execute(db);
  await sql`
    create table custody_keys (
      family text not null check (family in ('evm', 'tron')),
      fingerprint text not null check (fingerprint ~ '^[0-9a-f]{40}$'),
      xpub text not null,
      next_idx integer not null check (next_idx >= 0),
      created_at timestamptz not null default now(),
      primary key (family, fingerprint)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table custody_keys`.execute(db);
  await sql`drop index custody_addresses_user_idx`.execute(db);
  await sql`drop index custody_addresses_key_idx_key`.execute(db);
  await sql`drop index custody_addresses_key_user_key`.execute(db);
  // Only the newest key's addresses fit the old one-address-per-family shape.
  await sql`
    delete from custody_addresses a using custody_addresses b
    where a.family = b.family and a.user_id = b.user_id and a.created_at < b.created_at`.execute(db);
  await sql`alter table custody_addresses add constraint custody_addresses_family_user_id_key unique (family, user_id)`.execute(db);
  await sql`alter table custody_addresses add constraint custody_addresses_family_idx_key unique (family, idx)`.execute(db);
  await sql`alter table custody_addresses drop column key_fingerprint`.execute(db);
}
