import { microToNumber, percentOf, type TDateRange } from '@app/core';
import type { TStakeRow } from '@app/core/contracts';
import { utcDay } from '@app/core/days';
import type { DB, Executor } from '../../db/types';
import { withTx } from '../../db/tx';
import { AppError } from '../../lib/errors';
import { createdWithin } from '../../lib/date-range';
import { paginate } from '../../lib/paginate';
import { evaluateRewards } from '../income/service';
import * as ledger from '../ledger/service';
import { getSettings } from '../settings/service';
import * as team from '../team/service';
import './table';
import '../income/table';

/**
 * Buys a stake (server design, section 4): the amount moves from `deposit` to staked principal,
 * the stake keeps today's rate and cap, the first stake activates the user, the sponsor earns the
 * direct referral percentage once, and both are re-evaluated for reward levels. One transaction.
 */
export async function createStake(db: DB, userId: bigint, amount: bigint, now = new Date()): Promise<{ stakeId: bigint }> {
  const done = await withTx(db, async (tx) => {
    const me = await tx.selectFrom('users').select(['id', 'status', 'referrer_id', 'active_date']).where('id', '=', userId).executeTakeFirst();
    if (!me) throw new AppError('NOT_FOUND', 'User not found');
    // Lock the staker's and the sponsor's rows in id order first: every stake takes its locks
    // in the same order, so two stakes up and down one referral line cannot deadlock.
    const ids = [me.id, ...(me.referrer_id !== null ? [me.referrer_id] : [])].sort((a, b) => (a < b ? -1 : 1));
    const locked = await tx.selectFrom('users').select(['id', 'status']).where('id', 'in', ids).orderBy('id').forUpdate().execute();
    const meNow = locked.find((u) => u.id === me.id)!;
    if (meNow.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
    const sponsor = me.referrer_id !== null ? locked.find((u) => u.id === me.referrer_id) : undefined;

    const settings = await getSettings(tx);
    const today = utcDay(now);
    const stake = await tx
      .insertInto('stakes')
      .values({
        user_id: userId,
        amount,
        daily_rate: settings.roi_income_percentage,
        cap_percentage: settings.stake_cap_percentage,
        start_date: today,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ledger.post(tx, {
      key: `stake:${stake.id}`,
      kind: 'stake',
      userId,
      memo: `Stake #${stake.id}`,
      postings: [
        { account: ledger.userAccount(userId, 'deposit'), amount: -amount },
        { account: ledger.systemAccount(ledger.SYSTEM.stakedPrincipal), amount },
      ],
    });
    await ledger.bumpTotals(tx, userId, { total_staked: amount });
    if (meNow.status !== 'active')
      await tx
        .updateTable('users')
        .set({ status: 'active', active_date: me.active_date ?? today, updated_at: now })
        .where('id', '=', userId)
        .execute();
    await team.onStake(tx, userId, amount, meNow.status !== 'active');

    if (sponsor && sponsor.status !== 'blocked') {
      const bonus = percentOf(amount, settings.direct_referral_percentage);
      if (bonus > 0n) {
        const key = `referral:${stake.id}`;
        const res = await ledger.post(tx, {
          key,
          kind: 'referral',
          userId: sponsor.id,
          memo: `Direct referral income on stake #${stake.id}`,
          postings: [
            { account: ledger.systemAccount(ledger.SYSTEM.referralExpense), amount: -bonus },
            { account: ledger.userAccount(sponsor.id, 'income'), amount: bonus },
          ],
        });
        if (res.created) {
          const who = await tx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirstOrThrow();
          await ledger.recordIncome(tx, {
            userId: sponsor.id,
            type: 2,
            amount: bonus,
            note: `Direct referral income from ${who.username}`,
            sourceId: String(stake.id),
            forDate: null,
            key,
          });
        }
      }
    }
    await evaluateRewards(tx, userId);
    if (sponsor && sponsor.status !== 'blocked') await evaluateRewards(tx, sponsor.id);
    return { stakeId: stake.id };
  });
  // The ancestors' team business was written as one pending delta: fold it in after commit.
  team.kickDrain(db);
  return done;
}

/**
 * My stakes, newest first, with each stake's progress: days since its start (UTC), the ROI it has
 * paid and the cap it pays up to (amount × its own cap percentage, as the ROI run computes it).
 */
export async function listStakes(
  db: Executor,
  userId: bigint,
  page: number,
  perPage: number,
  now = new Date(),
  range?: TDateRange,
): Promise<{ rows: TStakeRow[]; total: number }> {
  const base = createdWithin(db.selectFrom('stakes').where('user_id', '=', userId), range);
  const { rows, total } = await paginate(base, page, perPage, (q) =>
    q.select(['id', 'amount', 'status', 'created_at', 'start_date', 'roi_paid', 'cap_percentage']).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
  return {
    total,
    rows: rows.map((r) => {
      const amount = BigInt(r.amount);
      const start = typeof r.start_date === 'string' ? r.start_date.slice(0, 10) : utcDay(r.start_date as Date);
      return {
        id: String(r.id),
        createdAt: r.created_at.toISOString(),
        type: 'stake',
        amount_usd: microToNumber(amount),
        status: r.status,
        start_date: start,
        days_elapsed: Math.max(0, Math.round((today - Date.parse(`${start}T00:00:00Z`)) / 86_400_000)),
        earned: microToNumber(BigInt(r.roi_paid)),
        cap: microToNumber(percentOf(amount, r.cap_percentage)),
      };
    }),
  };
}
