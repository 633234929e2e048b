import type { TActivityItem, TProfile, TUserInfo } from '@app/core/contracts';
import { microToNumber, type PaymentStatus, type StakeStatus, type WithdrawalStatus } from '@app/core';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { tokenHashKeys } from '../../db/batch-keys';
import { coalescePer } from '../../lib/coalesce';
import { appErrorFor } from '../../lib/db-errors';
import { AppError } from '../../lib/errors';
import { sessionCheck, touchSession } from '../auth/service';
import './table';

const ACTIVITY_LIMIT = 10;

type ActivityRow = { kind: 'staking' | 'transaction' | 'withdrawal'; id: bigint; amount: bigint; status: string; created_at: Date };

interface InfoRow {
  ord: number;
  session_status: string;
  session_id: bigint;
  last_used_at: Date | null;
  name: string;
  username: string;
  status: TUserInfo['status'];
  eligible_level: number;
  deposit: bigint | null;
  income: bigint | null;
  total_staked: bigint | null;
  roi_income: bigint | null;
  referral_income: bigint | null;
  reward_income: bigint | null;
  kind: ActivityRow['kind'] | null;
  id: bigint | null;
  amount: bigint | null;
  /** payments only: what arrived and what was asked */
  received: bigint | null;
  asked: bigint | null;
  cancelled_at: string | null;
  a_status: string | null;
  created_at: Date | null;
}

/** The rows of a turn's token hashes, grouped per hash (concurrent readers share the statement: lib/coalesce.ts). */
const infoRowsBySession = coalescePer(async (db: Executor, hashes: string[]): Promise<InfoRow[][]> => {
  const r = await sql<InfoRow>`
    select
      k.ord::int as ord, se.status as session_status, se.session_id, se.last_used_at,
      u.name, u.username, u.status, u.eligible_level,
      (select balance from ledger_accounts where user_id = u.id and kind = 'deposit') as deposit,
      (select balance from ledger_accounts where user_id = u.id and kind = 'income') as income,
      t.total_staked, t.roi_income, t.referral_income, t.reward_income,
      a.kind, a.id, a.amount, a.received, a.asked, a.cancelled_at, a.status as a_status, a.created_at
    from ${tokenHashKeys(hashes)}
    cross join lateral app_session(k.token_hash) se
    join users u on u.id = se.user_id
    left join user_totals t on t.user_id = u.id
    left join lateral (
      (select 'staking' as kind, s.id, s.amount, null::bigint as received, null::bigint as asked, null::text as cancelled_at, s.status::text as status, s.created_at
         from stakes s where s.user_id = u.id order by s.created_at desc limit ${ACTIVITY_LIMIT})
      union all
      (select 'transaction', p.id, case when p.credited_amount > 0 then p.credited_amount else p.price_amount end, p.actually_paid, p.pay_amount, p.extra->>'cancelled_at', p.status::text, p.created_at
         from payments p where p.user_id = u.id order by p.created_at desc, p.id desc limit ${ACTIVITY_LIMIT})
      union all
      (select 'withdrawal', w.id, w.amount, null, null, null, w.status::text, w.created_at
         from withdrawals w where w.user_id = u.id order by w.created_at desc limit ${ACTIVITY_LIMIT})
    ) a on true`.execute(db);
  const out: InfoRow[][] = hashes.map(() => []);
  for (const row of r.rows) out[row.ord - 1]!.push(row);
  // Once per session in the turn, however many of its requests share the statement.
  for (const [first] of out) if (first && first.session_status !== 'blocked') touchSession(db, first.session_id, first.last_used_at);
  return out;
});

/**
 * GET /api/user/get-info in one statement (issue 14): the user, their balances and totals, and the
 * latest ACTIVITY_LIMIT rows of each activity source (stakes, payments, withdrawals, each newest
 * first) as one UNION ALL, merged here newest first and cut to ACTIVITY_LIMIT in all. The session
 * is found from the request's token hash inside the same statement (app_session), and checked here
 * (sessionCheck: 401/403; docs/decisions/2026-11-23-session-cache.md). Requests of one turn share
 * one statement for all their token hashes (infoRowsBySession, lib/coalesce.ts). One round trip
 * where there were a session read, a user read and a read per activity source.
 */
export async function getUserInfoOneStatement(db: Executor, tokenHash: string): Promise<TUserInfo> {
  const rows = await infoRowsBySession(db, tokenHash);
  const first = rows[0];
  if (!first) throw appErrorFor('US001');
  sessionCheck(first.session_status);
  const m = (v: bigint | null | undefined) => microToNumber(BigInt(v ?? 0n));
  const activity: TActivityItem[] = [];
  for (const row of rows) {
    if (row.kind === null || row.id === null || row.created_at === null) continue;
    const base = { id: String(row.id), createdAt: row.created_at.toISOString() };
    // The same fields as the sources: a payment shows `amount`, a stake or withdrawal `amount_usd`.
    // The status column is each source's own, held to its list by the table's check constraint.
    const status = row.a_status ?? '';
    if (row.kind === 'transaction')
      activity.push({
        recordType: 'transaction',
        ...base,
        status: status as PaymentStatus,
        amount: m(row.amount),
        received: m(row.received),
        asked: m(row.asked),
        cancelled_at: row.cancelled_at,
      });
    else if (row.kind === 'staking') activity.push({ recordType: 'staking', ...base, status: status as StakeStatus, amount_usd: m(row.amount) });
    else activity.push({ recordType: 'withdrawal', ...base, status: status as WithdrawalStatus, amount_usd: m(row.amount) });
  }
  // Stable sort: staking, then deposits, then withdrawals on equal times.
  activity.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  const income = BigInt(first.roi_income ?? 0n) + BigInt(first.referral_income ?? 0n) + BigInt(first.reward_income ?? 0n);
  return {
    name: first.name,
    username: first.username,
    status: first.status,
    eligible_level: first.eligible_level,
    user_detail: {
      deposit_balance: m(first.deposit),
      total_staked: m(first.total_staked),
      total_income: m(income),
      roi_income: m(first.roi_income),
      direct_referral_income: m(first.referral_income),
      reward_income: m(first.reward_income),
      balance: m(first.income),
    },
    activity: activity.slice(0, ACTIVITY_LIMIT),
  };
}

export async function getProfile(db: Executor, userId: bigint): Promise<TProfile> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('users as s', 's.id', 'u.referrer_id')
    .select(['u.avatar', 'u.name', 'u.username', 'u.email', 'u.status', 'u.active_date', 's.username as sponsor'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return {
    avatar: row.avatar,
    name: row.name,
    username: row.username,
    email: row.email,
    referral_id: row.sponsor,
    status: row.status,
    active_date: row.active_date ? String(row.active_date).slice(0, 10) : null,
  };
}

/** The transfer screen's username check: another user, not blocked. */
export async function checkUsername(db: Executor, currentUserId: bigint, username: string): Promise<{ userName: string; username: string }> {
  const row = await db.selectFrom('users').select(['id', 'name', 'username', 'status']).where('username', '=', username.toUpperCase()).executeTakeFirst();
  if (!row || row.status === 'blocked') throw new AppError('NOT_FOUND', 'User not found');
  if (row.id === currentUserId) throw new AppError('BAD_REQUEST', 'You cannot transfer to yourself');
  return { userName: row.name, username: row.username };
}
