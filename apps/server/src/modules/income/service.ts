import { microToNumber } from '@app/core';
import type { TIncomeItem, TRewardLevel } from '@app/core/contracts';
import type { Executor } from '../../db/types';
import { paginate } from '../../lib/paginate';
import * as ledger from '../ledger/service';
import { getRewardLevels, rewardLevelToJson } from '../settings/service';
import './table';

export async function listIncome(
  db: Executor,
  userId: bigint,
  type: 1 | 2 | 3,
  page: number,
  perPage: number,
): Promise<{ rows: TIncomeItem[]; total: number }> {
  if (type === 1) {
    // ROI history lives on the ledger (migration 0137), not in income_records.
    const roi = await ledger.roiIncomePage(db, userId, page, perPage);
    return {
      total: roi.total,
      rows: roi.rows.map((r) => ({ id: String(r.id), createdAt: r.createdAt.toISOString(), amount: microToNumber(r.amount), note: r.note })),
    };
  }
  const { rows, total } = await paginate(db.selectFrom('income_records').where('user_id', '=', userId).where('type', '=', type), page, perPage, (q) =>
    q.select(['id', 'amount', 'note', 'created_at']).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({ id: String(r.id), createdAt: r.created_at.toISOString(), amount: microToNumber(BigInt(r.amount)), note: r.note })),
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
