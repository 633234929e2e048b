import { microToNumber, type TDateRange } from '@app/core';
import { sql } from 'kysely';
import type { TIncomeItem, TRewardLevel } from '@app/core/contracts';
import type { Executor } from '../../db/types';
import { createdWithin, dayBounds } from '../../lib/date-range';
import { paginate } from '../../lib/paginate';
import { offsetOf } from '../../lib/reply';
import * as ledger from '../ledger/service';
import { getRewardLevels, rewardLevelToJson } from '../settings/service';
import './table';

/** The UTC day an ROI credit is for: the note ends "… for yyyy-mm-dd" (ledger/roi-history.ts builds it from the entry's key). */
const FOR_DAY = / for (\d{4}-\d{2}-\d{2})$/;

/**
 * One page of income of a type, newest first, within the date range if one is given. ROI rows carry
 * `for_date`, the day they were for (a catch-up run credits past days): the income chart dates ROI
 * by that day, and so do the table and the range filter (issue 32, item 21).
 */
export async function listIncome(
  db: Executor,
  userId: bigint,
  type: 1 | 2 | 3,
  page: number,
  perPage: number,
  range?: TDateRange,
): Promise<{ rows: TIncomeItem[]; total: number }> {
  const { from, to } = dayBounds(range);
  if (type === 1) {
    // ROI history lives on the ledger (migration 0137), not in income_records. Without a range the
    // ledger's own page query; with one, the same credits (roiCredits) filtered by the day they are for.
    const roi = from || to ? await roiIncomeInRange(db, userId, page, perPage, range ?? {}) : await ledger.roiIncomePage(db, userId, page, perPage);
    return {
      total: roi.total,
      rows: roi.rows.map((r) => ({
        id: String(r.id),
        createdAt: r.createdAt.toISOString(),
        amount: microToNumber(r.amount),
        note: r.note,
        ...(FOR_DAY.exec(r.note) ? { for_date: FOR_DAY.exec(r.note)![1]! } : {}),
      })),
    };
  }
  const base = createdWithin(db.selectFrom('income_records').where('user_id', '=', userId).where('type', '=', type), range);
  const { rows, total } = await paginate(base, page, perPage, (q) =>
    q.select(['id', 'amount', 'note', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({ id: String(r.id), createdAt: r.created_at.toISOString(), amount: microToNumber(BigInt(r.amount)), note: r.note })),
  };
}

/**
 * ROI credits whose day is within the range, newest first, worded as the ledger's page words them.
 * A credit is never written before its day, so created_at >= start bounds the index range.
 */
async function roiIncomeInRange(
  db: Executor,
  userId: bigint,
  page: number,
  perPage: number,
  range: TDateRange,
): Promise<{ rows: { id: bigint; amount: bigint; note: string; createdAt: Date }[]; total: number }> {
  const start = range.start_date ?? '0001-01-01';
  const end = range.end_date ?? '9999-12-31';
  const since = range.start_date ? new Date(`${range.start_date}T00:00:00Z`) : new Date(0);
  const where = sql`r.user_id = ${userId} and r.created_at >= ${since} and r.for_date between ${start} and ${end}`;
  const count = await sql<{ n: string }>`select count(*) as n from ${ledger.roiCredits} r where ${where}`.execute(db);
  const rows = await sql<{ id: bigint; amount: bigint; note: string; created_at: Date }>`
    select r.entry_id as id, r.amount, r.created_at,
      'Daily ROI ' || coalesce(trim_scale(s.daily_rate)::text || '% ', '') || 'on stake #' || r.stake_id || ' for ' || r.for_date as note
    from ${ledger.roiCredits} r
    left join stakes s on s.id = r.stake_id::bigint
    where ${where}
    order by r.created_at desc, r.entry_id desc
    limit ${perPage} offset ${offsetOf(page, perPage)}`.execute(db);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    rows: rows.rows.map((r) => ({ id: BigInt(r.id), amount: BigInt(r.amount), note: r.note, createdAt: r.created_at })),
  };
}

/** The levels with whether this user has reached each. */
export async function rewardLevelsFor(db: Executor, userId: bigint): Promise<TRewardLevel[]> {
  const [levels, user] = await Promise.all([getRewardLevels(db), db.selectFrom('users').select('eligible_level').where('id', '=', userId).executeTakeFirst()]);
  const paid = await db.selectFrom('income_records').select('source_id').where('user_id', '=', userId).where('type', '=', 3).execute();
  const reached = new Set(paid.map((p) => p.source_id));
  return levels.map((l) => ({ ...rewardLevelToJson(l), achieved: reached.has(`L${l.level}`) || l.level <= (user?.eligible_level ?? 0) }));
}

// The ROI run and reward evaluation, for the admin job route and staking.
export { runRoi } from './roi';
export { evaluateRewards } from './rewards';
