import { sql, type Kysely } from 'kysely';

/**
 * One index fewer on the ledger's busiest table (issue 14, ROI speed): postings are only ever
 * read by their entry (an entry's legs, the reference check of a deleted entry) or their account
 * (balances, verify), never by their own id. The primary key (id) and the index on (entry_id)
 * become one primary key (entry_id, id), which serves every read by entry the old index served,
 * and every posting written (two per ROI credit, two or three per transfer) updates two indexes
 * instead of three.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_postings drop constraint ledger_postings_pkey, add constraint ledger_postings_pkey primary key (entry_id, id)`.execute(db);
  await sql`drop index ledger_postings_entry_id_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index ledger_postings_entry_id_idx on ledger_postings (entry_id)`.execute(db);
  await sql`alter table ledger_postings drop constraint ledger_postings_pkey, add constraint ledger_postings_pkey primary key (id)`.execute(db);
}
