import { microToNumber } from '@app/core';
import type { TWallet } from '@app/core/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { tokenHashKeys } from '../../db/batch-keys';
import { coalescePer } from '../../lib/coalesce';
import { sessionCheck, touchSession } from '../auth/service';

interface WalletRow {
  ord: number;
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
  session_status: string;
  session_id: bigint;
  last_used_at: Date | null;
}

/**
 * The wallets behind a turn's token hashes in one statement: each hash finds its live session and
 * its user's status (401/403 decided per caller, as the authentication hook answers), then cached
 * balances, running totals and team counters, each an indexed single-row read (no history scans,
 * whatever the size of the team). The session check costs no round trip of its own
 * (docs/decisions/2026-11-23-session-cache.md), and concurrent readers share the statement
 * (lib/coalesce.ts).
 */
const walletsBySession = coalescePer(async (db: Executor, hashes: string[]): Promise<(WalletRow | undefined)[]> => {
  const r = await sql<WalletRow>`
    select
      k.ord::int as ord, se.user_id as id, se.status as session_status, se.session_id, se.last_used_at,
      (select balance from ledger_accounts where user_id = se.user_id and kind = 'deposit') as deposit,
      (select balance from ledger_accounts where user_id = se.user_id and kind = 'income') as income,
      t.total_staked, t.total_withdrawn, (t.roi_income + t.referral_income + t.reward_income)::bigint as earned,
      s.directs, s.direct_business, s.network_users, s.network_active_users, s.network_business
    from ${tokenHashKeys(hashes)}
    cross join lateral app_session(k.token_hash) se
    left join user_totals t on t.user_id = se.user_id
    -- Per caller, never the view for everyone: without the fence (offset 0) the planner may
    -- hash-join team_stats, summing every user's pending team deltas to use a few.
    left join lateral (select * from team_stats ts where ts.user_id = se.user_id offset 0) s on true`.execute(db);
  const out: (WalletRow | undefined)[] = new Array(hashes.length);
  for (const row of r.rows) {
    out[row.ord - 1] = row;
    // Once per session in the turn, however many of its requests share the statement.
    if (row.session_status !== 'blocked') touchSession(db, row.session_id, row.last_used_at);
  }
  return out;
});

/** The wallet of the session whose token hashes to `tokenHash` (the route's one statement). */
export async function getWallet(db: Executor, tokenHash: string): Promise<TWallet> {
  const w = await walletsBySession(db, tokenHash);
  sessionCheck(w?.session_status);
  const m = (v: bigint | null | undefined) => microToNumber(BigInt(v ?? 0n));
  return {
    user_id: String(w!.id),
    balance: m(w!.income),
    deposit_balance: m(w!.deposit),
    total_staked: m(w!.total_staked),
    total_income: m(w!.earned),
    total_withdraw: m(w!.total_withdrawn),
    total_directs: w!.directs ?? 0,
    total_direct_business: m(w!.direct_business),
    total_network: w!.network_users ?? 0,
    team_business: { users: w!.network_active_users ?? 0, amount: m(w!.network_business) },
  };
}
