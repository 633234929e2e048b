import { microToNumber } from '@app/core';
import type { TWallet } from '@app/core/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';

/**
 * The wallet in one round trip: cached balances, running totals and team counters, each an
 * indexed single-row read (no history scans, whatever the size of the team).
 */
export async function getWallet(db: Executor, userId: bigint): Promise<TWallet> {
  const r = await sql<{
    deposit: bigint | null;
    income: bigint | null;
    total_staked: bigint | null;
    total_withdrawn: bigint | null;
    earned: bigint | null;
    directs: number | null;
    direct_business: bigint | null;
    network_users: number | null;
    network_active_users: number | null;
    network_business: bigint | null;
  }>`
    select
      (select balance from ledger_accounts where user_id = ${userId} and kind = 'deposit') as deposit,
      (select balance from ledger_accounts where user_id = ${userId} and kind = 'income') as income,
      t.total_staked, t.total_withdrawn, (t.roi_income + t.referral_income + t.reward_income)::bigint as earned,
      s.directs, s.direct_business, s.network_users, s.network_active_users, s.network_business
    from (select ${userId}::bigint as id) me
    left join user_totals t on t.user_id = me.id
    left join team_stats s on s.user_id = me.id`.execute(db);
  const w = r.rows[0];
  const m = (v: bigint | null | undefined) => microToNumber(BigInt(v ?? 0n));
  return {
    user_id: String(userId),
    balance: m(w?.income),
    deposit_balance: m(w?.deposit),
    total_staked: m(w?.total_staked),
    total_income: m(w?.earned),
    total_withdraw: m(w?.total_withdrawn),
    total_directs: w?.directs ?? 0,
    total_direct_business: m(w?.direct_business),
    total_network: w?.network_users ?? 0,
    team_business: { users: w?.network_active_users ?? 0, amount: m(w?.network_business) },
  };
}
