import { sql, type Kysely } from 'kysely';
import { createRoiChunkPartFunction } from './0132_roi_parts';

/**
 * ROI income history is read from the ledger (issue 14, ROI speed). Each ROI credit already is a
 * ledger entry keyed roi:<stake>:<day> whose posting to the user's income account is the amount;
 * the income record the chunk wrote beside it repeated the entry (user, amount, day, stake) and cost
 * a row and three index entries per credit (bench/roi-variants.ts, 1,000,000 stakes, 2026-11-26:
 * without it 25.07/28.39 s against 31.12/37.34 s on one VM, 38.59/37.49 against 40.77/38.08 s on
 * another; docs/benchmarks.md).
 *
 * - The chunk function no longer writes income records; user_totals.roi_income still moves with it.
 * - The ROI records written so far are deleted: each was written in the statement that wrote its
 *   entry, under the same key, and ledger:verify checked their sums against the entries', so
 *   nothing is lost, and the list never shows a credit twice. down() rebuilds them from the
 *   entries. Referral and reward records (types 2 and 3) stay where they are: they are few, and a
 *   reward level's record is what marks it paid.
 * - The entries' user index gains the kind, so a user's ROI history is one index range
 *   (user, 'roi', newest first) however many other entries the user has. It replaces the old
 *   (user_id, created_at) index rather than joining it: one index per entry, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createRoiChunkPartFunction(db, { incomeOnConflict: false, incomeRecords: false });
  await sql`create index ledger_entries_user_kind_idx on ledger_entries (user_id, kind, created_at desc, id desc)`.execute(db);
  await sql`drop index ledger_entries_user_id_idx`.execute(db);
  await sql`delete from income_records where type = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The records as the chunk wrote them, rebuilt from their entries.
  await sql`
    insert into income_records (user_id, type, amount, note, source_id, for_date, idempotency_key, created_at)
    select e.user_id, 1, p.amount,
      'Daily ROI ' || trim_scale(s.daily_rate)::text || '% on stake #' || s.id || ' for ' || split_part(e.idempotency_key, ':', 3),
      s.id::text, split_part(e.idempotency_key, ':', 3)::date, e.idempotency_key, e.created_at
    from ledger_entries e
    join ledger_accounts a on a.user_id = e.user_id and a.kind = 'income'
    join ledger_postings p on p.entry_id = e.id and p.account_id = a.id
    join stakes s on s.id = split_part(e.idempotency_key, ':', 2)::bigint
    where e.kind = 'roi'
    order by e.id`.execute(db);
  await sql`create index ledger_entries_user_id_idx on ledger_entries (user_id, created_at desc)`.execute(db);
  await sql`drop index ledger_entries_user_kind_idx`.execute(db);
  await createRoiChunkPartFunction(db, { incomeOnConflict: false });
}
