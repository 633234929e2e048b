import { microToNumber, type PaymentStatus, type WithdrawalStatus } from '@app/core';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import * as ledger from '../ledger/service';
import { getTeamSummary } from '../team/service';

/** Everything an operator needs about one user: balances, ledger entries, stakes, team, payments, withdrawals. */
export async function getUserDetail(db: Executor, userId: bigint) {
  const user = await db
    .selectFrom('users as u')
    .leftJoin('users as s', 's.id', 'u.referrer_id')
    .select([
      'u.id',
      'u.name',
      'u.email',
      'u.username',
      'u.status',
      'u.is_admin',
      'u.eligible_level',
      'u.created_at',
      'u.email_verified_at',
      'u.active_date',
      's.username as referrer',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const [balances, totals, team] = await Promise.all([ledger.getBalances(db, userId), ledger.getTotals(db, userId), getTeamSummary(db, userId)]);
  const entries = await sql<{ id: bigint; kind: string; idempotency_key: string; memo: string | null; created_at: Date }>`
    select distinct e.id, e.kind, e.idempotency_key, e.memo, e.created_at
    from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
    where a.user_id = ${userId} order by e.id desc limit 50`.execute(db);
  const ids = entries.rows.map((e) => e.id);
  const postings = ids.length
    ? await sql<{ entry_id: bigint; amount: bigint; kind: string; username: string | null }>`
        select p.entry_id, p.amount, a.kind, u.username from ledger_postings p join ledger_accounts a on a.id = p.account_id left join users u on u.id = a.user_id
        where p.entry_id in (${sql.join(ids)}) order by p.id`.execute(db)
    : { rows: [] };
  const stakes = await db
    .selectFrom('stakes')
    .select(['id', 'amount', 'roi_paid', 'status', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const payments = await optional(() =>
    sql<{ id: bigint; provider_payment_id: string; status: PaymentStatus; price_amount: bigint; credited_amount: bigint; created_at: Date }>`
      select id, provider_payment_id, status, price_amount, credited_amount, created_at from payments where user_id = ${userId} order by id desc limit 50`.execute(
      db,
    ),
  );
  const withdrawals = await optional(() =>
    sql<{ id: bigint; amount: bigint; status: WithdrawalStatus; network: string; created_at: Date }>`
      select id, amount, status, network, created_at from withdrawals where user_id = ${userId} order by id desc limit 50`.execute(db),
  );
  return {
    user: {
      id: String(user.id),
      name: user.name,
      email: user.email,
      username: user.username,
      status: user.status,
      is_admin: user.is_admin,
      eligible_level: user.eligible_level,
      verified: user.email_verified_at !== null,
      createdAt: user.created_at.toISOString(),
      referrer: user.referrer,
      active_date: user.active_date,
    },
    balances: { deposit: microToNumber(balances.deposit), income: microToNumber(balances.income) },
    totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, microToNumber(v)])),
    team: {
      ...team,
      total_direct_business: microToNumber(team.total_direct_business),
      team_business: { users: team.team_business.users, amount: microToNumber(team.team_business.amount) },
    },
    ledger: entries.rows.map((e) => ({
      id: String(e.id),
      kind: e.kind,
      key: e.idempotency_key,
      memo: e.memo,
      createdAt: e.created_at.toISOString(),
      postings: postings.rows
        .filter((p) => p.entry_id === e.id)
        .map((p) => ({ account: p.username ? `${p.username}:${p.kind}` : p.kind, amount: microToNumber(BigInt(p.amount)) })),
    })),
    stakes: stakes.map((s) => ({
      id: String(s.id),
      amount: microToNumber(BigInt(s.amount)),
      roi_paid: microToNumber(BigInt(s.roi_paid)),
      status: s.status,
      createdAt: s.created_at.toISOString(),
    })),
    payments: payments.map((p) => ({
      id: String(p.id),
      payment_id: p.provider_payment_id,
      status: p.status,
      amount: microToNumber(BigInt(p.price_amount)),
      credited: microToNumber(BigInt(p.credited_amount)),
      createdAt: p.created_at.toISOString(),
    })),
    withdrawals: withdrawals.map((w) => ({
      id: String(w.id),
      amount: microToNumber(BigInt(w.amount)),
      status: w.status,
      network: w.network,
      createdAt: w.created_at.toISOString(),
    })),
  };
}

/** Rows of a table another module owns, or none while that module has not landed. */
async function optional<T>(q: () => Promise<{ rows: T[] }>): Promise<T[]> {
  try {
    return (await q()).rows;
  } catch (err) {
    if ((err as { code?: string }).code === '42P01') return [];
    throw err;
  }
}
