import { sql } from 'kysely';
import type { Executor } from '../db/types';
import { roiCredits } from '../modules/ledger/roi-history';

/** Every ROI credit, read from the ledger exactly as the income list reads it (migration 0137). */
export { roiCredits };

/** The days a user was credited ROI for, oldest first. */
export async function roiDays(db: Executor, userId: bigint): Promise<string[]> {
  const rows = await sql<{ for_date: string }>`select r.for_date from ${roiCredits} r where r.user_id = ${userId} order by r.for_date, r.entry_id`.execute(db);
  return rows.rows.map((r) => r.for_date);
}
