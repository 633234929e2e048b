import { sql } from 'kysely';
import type { Tx } from '../../db/types';
import * as ledger from '../ledger/service';
import { getRewardLevels } from '../settings/service';
import './table';

/**
 * Re-evaluates a user's reward levels (server design, section 4): self investment = the user's
 * all-time total staked; direct investment = the direct referrals' all-time total staked. Each
 * newly met level pays its reward into `income` once (key reward:<user>:L<n>), and
 * eligible_level becomes the highest level met. Runs inside the stake's transaction.
 */
export async function evaluateRewards(tx: Tx, userId: bigint): Promise<void> {
  const levels = await getRewardLevels(tx);
  if (!levels.length) return;
  const figures = await sql<{ self: bigint | null; direct: bigint | null }>`
    select (select total_staked from user_totals where user_id = ${userId}) as self,
           (select coalesce(sum(t.total_staked), 0) from users u join user_totals t on t.user_id = u.id where u.referrer_id = ${userId})::bigint as direct`.execute(
    tx,
  );
  const self = BigInt(figures.rows[0]?.self ?? 0n);
  const direct = BigInt(figures.rows[0]?.direct ?? 0n);
  const met = levels.filter((l) => self >= l.self_investment && direct >= l.direct_investment);
  if (!met.length) return;
  for (const level of met) {
    const key = `reward:${userId}:L${level.level}`;
    const res = await ledger.post(tx, {
      key,
      kind: 'reward',
      userId,
      memo: `Reward level L${level.level}`,
      postings: [
        { account: ledger.systemAccount(ledger.SYSTEM.rewardExpense), amount: -level.reward },
        { account: ledger.userAccount(userId, 'income'), amount: level.reward },
      ],
    });
    if (!res.created) continue;
    await ledger.recordIncome(tx, {
      userId,
      type: 3,
      amount: level.reward,
      note: `Reward level L${level.level} achieved`,
      sourceId: `L${level.level}`,
      forDate: null,
      key,
    });
  }
  const highest = Math.max(...met.map((l) => l.level));
  await tx.updateTable('users').set({ eligible_level: highest }).where('id', '=', userId).where('eligible_level', '<', highest).execute();
}
