import { sql } from 'kysely';
import type { Executor } from '../db/types';

/**
 * Every ROI credit as a derived table, read from the ledger as the income list reads it (migration
 * 0137: no income records for ROI): user_id, stake_id (text, as income records' source_id was),
 * for_date (text yyyy-mm-dd), amount (the posting to the user's income account) and the entry's key.
 * Use it as `from ${roiCredits} r`.
 */
export const roiCredits = sql`(
  select e.user_id, split_part(e.idempotency_key, ':', 2) as stake_id, split_part(e.idempotency_key, ':', 3) as for_date,
    p.amount, e.idempotency_key, e.id as entry_id
  from ledger_entries e
  join ledger_accounts a on a.user_id = e.user_id and a.kind = 'income'
  join ledger_postings p on p.entry_id = e.id and p.account_id = a.id
  where e.kind = 'roi')`;

/** The days a user was credited ROI for, oldest first. */
export async function roiDays(db: Executor, userId: bigint): Promise<string[]> {
  const rows = await sql<{ for_date: string }>`select r.for_date from ${roiCredits} r where r.user_id = ${userId} order by r.for_date, r.entry_id`.execute(db);
  return rows.rows.map((r) => r.for_date);
}
