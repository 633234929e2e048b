import { microToNumber } from '@app/core';
import type { TWallet } from '@app/core/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { sessionCheck, touchSession } from '../auth/service';

/**
 * The wallet in one round trip: cached balances, running totals and team counters, each an
 * indexed single-row read (no history scans, whatever the size of the team). Either for a user id,
 * or (the route) for the request's token hash: then the same statement finds the session, checks it
 * is live and the user not blocked (401/403 as the authentication hook answers), and reads the
 * wallet: the session check costs no round trip of its own (docs/decisions/2026-11-23-session-cache.md).
 */
export async function getWallet(db: Executor, who: bigint | { tokenHash: string }): Promise<TWallet> {
  const bySession = typeof who !== 'bigint';
  const r = await sql<{
    id: bigint;
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
    session_id: bigint | null;
    last_used_at: Date | null;
  }>`
    select
      me.id, me.session_status, me.session_id, me.last_used_at,
      (select balance from ledger_accounts where user_id = me.id and kind = 'deposit') as deposit,
      (select balance from ledger_accounts where user_id = me.id and kind = 'income') as income,
      t.total_staked, t.total_withdrawn, (t.roi_income + t.referral_income + t.reward_income)::bigint as earned,
      s.directs, s.direct_business, s.network_users, s.network_active_users, s.network_business
    from ${
      bySession
        ? sql`(select se.user_id as id, u.status as session_status, se.id as session_id, se.last_used_at
                 from sessions se join users u on u.id = se.user_id
                where se.token_hash = ${who.tokenHash} and se.expires_at > now())`
        : sql`(select ${who}::bigint as id, null::text as session_status, null::bigint as session_id, null::timestamptz as last_used_at)`
    } me
    left join user_totals t on t.user_id = me.id
    left join team_stats s on s.user_id = me.id`.execute(db);
  const w = r.rows[0];
  if (bySession) {
    sessionCheck(w?.session_status);
    touchSession(db, w!.session_id!, w!.last_used_at);
  }
  const userId = w?.id ?? (who as bigint);
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
