import type { Kysely } from 'kysely';
import { createRoiChunkPartFunction } from './0132_roi_parts';

/**
 * The ROI chunk writes its income records with a plain insert (issue 14, ROI speed). They are
 * written only for the entries the same statement has just inserted, and an entry's key is unique,
 * so the records' own `on conflict do nothing` could never skip a row a correct ledger holds; it
 * cost a speculative insert per credit (a probe of the key's index before the row, a confirmation
 * record in the WAL after it). Should a record with that key exist without its entry (a ledger
 * already broken), the chunk now fails with 23505 and is retried, then the run fails, instead of
 * writing an entry whose income record is missing: ledger:verify would flag either, this one stops
 * first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createRoiChunkPartFunction(db, { incomeOnConflict: false });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await createRoiChunkPartFunction(db, { incomeOnConflict: true });
}
