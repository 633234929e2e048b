import { sql, type Kysely } from 'kysely';

/**
 * ledger:verify checks every stake's roi_paid against the ROI posted for it (issue 51: under 5 s
 * for the ledger that 1,000,000 stakes' ROI writes). Grouping a million postings by stake in a hash
 * and joining that to a million stakes took 3.3-4.3 s of the 6.8-7.6 s; read in stake order from
 * this index, beside the stakes' primary key, it is one merge with nothing hashed or sorted:
 * 1.7-2.0 s. Partial: only ROI postings name a stake, so a transfer's postings never touch it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index ledger_postings_stake_idx on ledger_postings (stake_id) include (amount) where stake_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index ledger_postings_stake_idx`.execute(db);
}
