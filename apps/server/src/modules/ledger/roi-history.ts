import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { offsetOf } from '../../lib/reply';
import '../staking/table';
import './table';

/**
 * A user's ROI income history, read from the ledger (migration 0137): every ROI credit is an entry
 * keyed roi:<stake>:<yyyy-mm-dd> whose posting to the user's income account is the amount. The
 * stake and the day it was for come from the key, the note from the stake's rate, worded as the
 * income records it replaces were. Newest first, as every income list.
 */
export interface RoiIncomeRow {
  id: bigint;
  amount: bigint;
  note: string;
  createdAt: Date;
}

const stakeOf = sql<string>`split_part(e.idempotency_key, ':', 2)`;
const dayOf = sql<string>`split_part(e.idempotency_key, ':', 3)`;
/** The user's income account and the entry's posting to it: the credit's amount (alias p). */
const incomePostingOf = sql`join ledger_accounts a on a.user_id = e.user_id and a.kind = 'income'
    join ledger_postings p on p.entry_id = e.id and p.account_id = a.id`;

/**
 * Every ROI credit as a derived table: entry_id, user_id, created_at, idempotency_key, stake_id
 * (text), for_date (text yyyy-mm-dd) and amount. Use it as `from ${roiCredits} r where r.user_id =
 * …`: PostgreSQL pulls the subquery up, so the filter reaches the entries' (user, kind) index.
 * (Migration 0137's down() keeps its own copy on purpose: a migration must not change when this does.)
 */
export const roiCredits = sql`(
  select e.id as entry_id, e.user_id, e.created_at, e.idempotency_key, ${stakeOf} as stake_id, ${dayOf} as for_date, p.amount
  from ledger_entries e
  ${incomePostingOf}
  where e.kind = 'roi')`;

export async function roiIncomePage(db: Executor, userId: bigint, page: number, perPage: number): Promise<{ rows: RoiIncomeRow[]; total: number }> {
  const count = await sql<{ n: string }>`
    select count(*) as n from ledger_entries e where e.user_id = ${userId} and e.kind = 'roi'`.execute(db);
  // The page is picked on the entries' (user, kind, created_at, id) index alone, then joined, so
  // the rows an offset skips are never joined (roiCredits would join them first).
  const rows = await sql<{ id: bigint; amount: bigint; note: string; created_at: Date }>`
    select e.id, p.amount, e.created_at,
      'Daily ROI ' || coalesce(trim_scale(s.daily_rate)::text || '% ', '') || 'on stake #' || ${stakeOf} || ' for ' || ${dayOf} as note
    from (
      select e.id, e.idempotency_key, e.user_id, e.created_at from ledger_entries e
      where e.user_id = ${userId} and e.kind = 'roi'
      order by e.created_at desc, e.id desc
      limit ${perPage} offset ${offsetOf(page, perPage)}) e
    ${incomePostingOf}
    left join stakes s on s.id = ${stakeOf}::bigint
    order by e.created_at desc, e.id desc`.execute(db);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    rows: rows.rows.map((r) => ({ id: BigInt(r.id), amount: BigInt(r.amount), note: r.note, createdAt: r.created_at })),
  };
}

/**
 * A user's ROI income per day it was for (the key's day: a catch-up run credits past days), for
 * the days `from`..`to`. created_at bounds the index range: a credit is never written before its day.
 */
export async function roiIncomeByDay(db: Executor, userId: bigint, from: string, to: string): Promise<{ day: string; sum: bigint }[]> {
  const rows = await sql<{ day: string; sum: string }>`
    select r.for_date as day, sum(r.amount)::text as sum
    from ${roiCredits} r
    where r.user_id = ${userId} and r.created_at >= ${new Date(`${from}T00:00:00Z`)} and r.for_date between ${from} and ${to}
    group by 1`.execute(db);
  return rows.rows.map((r) => ({ day: r.day, sum: BigInt(r.sum) }));
}
