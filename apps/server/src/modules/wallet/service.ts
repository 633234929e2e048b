import { microToNumber } from '@app/core';
import type { TWallet } from '@app/core/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { sessionCheck } from '../auth/service';

/**
 * The wallet in one round trip: cached balances, running totals and team counters, each an
 * indexed single-row read (no history scans, whatever the size of the team). With `tokenHash`
 * (the route's bearer token) the same statement also checks the session and the user's status, so
 * the session cache in front of it can never serve a revoked token or a blocked user
 * (docs/decisions/2026-11-23-session-cache.md).
 */
export async function getWallet(db: Executor, userId: bigint, tokenHash?: string): Promise<TWallet> {
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
    session_status: string | null;
  }>`
    select
      ${
        tokenHash === undefined
          ? sql`'active'`
          : sql`(select u.status from sessions se join users u on u.id = se.user_id
                 where se.token_hash = ${tokenHash} and se.user_id = ${userId} and se.expires_at > now())`
      } as session_status,
      (select balance from ledger_accounts where user_id = ${userId} and kind = 'deposit') as deposit,
      (select balance from ledger_accounts where user_id = ${userId} and kind = 'income') as income,
      t.total_staked, t.total_withdrawn, (t.roi_income + t.referral_income + t.reward_income)::bigint as earned,
      s.directs, s.direct_business, s.network_users, s.network_active_users, s.network_business
    from (select ${userId}::bigint as id) me
    left join user_totals t on t.user_id = me.id
    left join team_stats s on s.user_id = me.id`.execute(db);
  const w = r.rows[0];
  if (tokenHash !== undefined) sessionCheck(w?.session_status);
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
