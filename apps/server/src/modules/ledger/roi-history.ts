import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { offsetOf } from '../../lib/reply';
import '../staking/table';
import './table';

/**
 * A user's ROI income history, read from the ledger (migrations 0137 and 0180): ROI is posted as
 * one entry per user and day keyed roi:<first stake>:<yyyy-mm-dd>, with one posting per stake to
 * the user's income account carrying the stake (`stake_id`; entries written before 0180 hold one
 * stake each and got theirs from the key). Each of those postings is one credit of the list: the
 * stake from the posting, the day from the key, the note from the stake's rate, worded as the
 * income records it replaces were. Newest first, as every income list.
 */
export interface RoiIncomeRow {
  id: bigint;
  amount: bigint;
  note: string;
  createdAt: Date;
}

const dayOf = sql<string>`split_part(e.idempotency_key, ':', 3)`;
/** The user's income account and the entry's postings to it: one per stake credited (alias p). */
const incomePostingOf = sql`join ledger_accounts a on a.user_id = e.user_id and a.kind = 'income'
    join ledger_postings p on p.entry_id = e.id and p.account_id = a.id`;

/**
 * Every ROI credit as a derived table: credit_id (the posting), entry_id, user_id, created_at,
 * idempotency_key, stake_id (text), for_date (text yyyy-mm-dd) and amount. Use it as
 * `from ${roiCredits} r where r.user_id = …`: PostgreSQL pulls the subquery up, so the filter
 * reaches the entries' (user, kind) index.
 * (Migration 0137's down() keeps its own copy on purpose: a migration must not change when this does.)
 */
export const roiCredits = sql`(
  select p.id as credit_id, e.id as entry_id, e.user_id, e.created_at, e.idempotency_key, p.stake_id::text as stake_id, ${dayOf} as for_date, p.amount
  from ledger_entries e
  ${incomePostingOf}
  where e.kind = 'roi')`;

export async function roiIncomePage(db: Executor, userId: bigint, page: number, perPage: number): Promise<{ rows: RoiIncomeRow[]; total: number }> {
  const count = await sql<{ n: string }>`
    select count(*) as n from ledger_entries e ${incomePostingOf} where e.user_id = ${userId} and e.kind = 'roi'`.execute(db);
  // Walked on the entries' (user, kind, created_at, id) index, newest first, each entry's
  // postings by its key; the LIMIT stops the walk at the page's end.
  const rows = await sql<{ id: bigint; amount: bigint; note: string; created_at: Date }>`
    select p.id, p.amount, e.created_at,
      'Daily ROI ' || coalesce(trim_scale(s.daily_rate)::text || '% ', '') || 'on stake #' || coalesce(p.stake_id::text, '') || ' for ' || ${dayOf} as note
    from ledger_entries e
    ${incomePostingOf}
    left join stakes s on s.id = p.stake_id
    where e.user_id = ${userId} and e.kind = 'roi'
    order by e.created_at desc, e.id desc, p.stake_id desc
    limit ${perPage} offset ${offsetOf(page, perPage)}`.execute(db);
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
