import { microToNumber } from '@app/core';
import { utcDay } from '@app/core/days';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import * as ledger from '../ledger/service';

/** The admin dashboard's figures: people, money in and out, what the platform owes its users. */
export async function getStats(db: Executor) {
  const people = await sql<{ users: bigint; active: bigint }>`
    select count(*) filter (where not is_admin)::bigint as users, count(*) filter (where status = 'active' and not is_admin)::bigint as active from users`.execute(
    db,
  );
  const totals = await sql<{ deposited: bigint | null; staked: bigint | null }>`
    select sum(total_deposited)::bigint as deposited, sum(total_staked)::bigint as staked from user_totals`.execute(db);
  const liabilities = await sql<{ total: bigint | null }>`select sum(balance)::bigint as total from ledger_accounts where user_id is not null`.execute(db);
  const withdrawals = (await tableExists(db, 'withdrawals'))
    ? await sql<{
        status: string;
        n: bigint;
        amount: bigint | null;
      }>`select status, count(*)::bigint as n, sum(amount)::bigint as amount from withdrawals group by status`.execute(db)
    : { rows: [] };
  const byStatus = (s: string) => withdrawals.rows.find((r) => r.status === s);
  const daily = await sql<{ day: string; kind: string; amount: bigint }>`
    select to_char(date_trunc('day', e.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, e.kind, sum(p.amount)::bigint as amount
    from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
    where e.created_at > now() - interval '14 days' and a.user_id is not null
      and ((e.kind = 'deposit' and p.amount > 0) or (e.kind = 'withdrawal' and p.amount < 0))
    group by 1, 2 order by 1`.execute(db);
  const days = new Map<string, { date: string; deposits: number; withdrawals: number }>();
  for (let i = 13; i >= 0; i--) {
    const d = utcDay(new Date(Date.now() - i * 86_400_000));
    days.set(d, { date: d, deposits: 0, withdrawals: 0 });
  }
  for (const r of daily.rows) {
    const slot = days.get(r.day);
    if (!slot) continue;
    if (r.kind === 'deposit') slot.deposits += microToNumber(BigInt(r.amount));
    else slot.withdrawals += microToNumber(-BigInt(r.amount));
  }
  return {
    users: Number(people.rows[0]?.users ?? 0n),
    active_users: Number(people.rows[0]?.active ?? 0n),
    total_deposits: microToNumber(BigInt(totals.rows[0]?.deposited ?? 0n)),
    total_staked: microToNumber(BigInt(totals.rows[0]?.staked ?? 0n)),
    liabilities: microToNumber(BigInt(liabilities.rows[0]?.total ?? 0n)),
    withdrawals_pending: { count: Number(byStatus('pending')?.n ?? 0n), amount: microToNumber(BigInt(byStatus('pending')?.amount ?? 0n)) },
    withdrawals_paid: { count: Number(byStatus('completed')?.n ?? 0n), amount: microToNumber(BigInt(byStatus('completed')?.amount ?? 0n)) },
    daily: [...days.values()],
    ledger_system_balances: {
      staked_principal: microToNumber(await ledger.getSystemBalance(db, ledger.SYSTEM.stakedPrincipal)),
    },
  };
}

async function tableExists(db: Executor, name: string): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select to_regclass(${name}) is not null as ok`.execute(db);
  return Boolean(r.rows[0]?.ok);
}
