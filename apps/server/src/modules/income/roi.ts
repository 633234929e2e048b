import { percentOf } from '@app/core';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { withTx } from '../../db/tx';
import type { Tx } from '../../db/types';
import { AppError } from '../../lib/errors';
import * as ledger from '../ledger/service';
import { postBatch } from '../ledger/service';
import type { EntryInput } from '../ledger/service';
import { normalizePercent } from '../settings/service';
import './table';
import '../staking/table';

const CHUNK = 500;
const ROI_TX_ATTEMPTS = 10;
const ROI_LOCK = 7_402_001; // advisory lock id: one ROI run at a time across processes

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** True for a real calendar day written YYYY-MM-DD ('2025-02-30' is not one). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export interface RoiResult {
  date: string;
  stakes: number;
  credits: number;
  total: bigint;
  completed: number;
}

/**
 * Credits ROI for every stake-day up to and including `date` not yet credited (server design,
 * section 4). A stake made on day S earns for S+1, S+2, …; each credit is amount × the stake's
 * own daily rate, the last one trimmed to the cap, and is one ledger entry keyed
 * roi:<stake>:<day>. Stakes are taken in chunks under a row lock and an advisory lock, so a run
 * that races another, or repeats, credits nothing twice.
 */
export async function runRoi(ctx: Pick<AppContext, 'db' | 'dbKind'>, date: string): Promise<RoiResult> {
  if (!isDay(date)) throw new AppError('VALIDATION', `Invalid ROI date ${date} (expected YYYY-MM-DD)`);
  const result: RoiResult = { date, stakes: 0, credits: 0, total: 0n, completed: 0 };
  let afterId = 0n;
  for (;;) {
    const done = await withTx(
      ctx.db,
      async (tx) => {
        if (ctx.dbKind === 'postgres') await sql`select pg_advisory_xact_lock(${ROI_LOCK})`.execute(tx);
        const stakes = await tx
          .selectFrom('stakes')
          .select(['id', 'user_id', 'amount', 'daily_rate', 'cap_percentage', 'roi_paid', 'start_date', 'last_roi_date'])
          .where('status', '=', 'active')
          .where('id', '>', afterId)
          .where('start_date', '<', date)
          .where((eb) => eb.or([eb('last_roi_date', 'is', null), eb('last_roi_date', '<', date)]))
          .orderBy('id')
          .limit(CHUNK)
          .forUpdate()
          .execute();
        if (!stakes.length) return true;
        afterId = stakes[stakes.length - 1]!.id;
        // A stake locks its user's and sponsor's rows (in id order) before it touches their
        // accounts and totals, then takes account, totals, account, totals; the chunk takes all
        // accounts, then all totals. Taking the same user rows first, in the same order, makes the
        // two queue instead of deadlocking. KEY SHARE blocks only a stake, not a profile update.
        const userIds = [...new Set(stakes.map((s) => s.user_id))].sort((a, b) => (a < b ? -1 : 1));
        await tx.selectFrom('users').select('id').where('id', 'in', userIds).orderBy('id').forKeyShare().execute();
        await creditChunk(tx, stakes, date, result);
        return false;
        // A chunk holds many accounts at once, so it is the likely deadlock victim when stakes,
        // transfers and withdrawals run beside it; it is safe to run again, so give it more tries.
      },
      ROI_TX_ATTEMPTS,
    );
    if (done) return result;
  }
}

type StakeRow = {
  id: bigint;
  user_id: bigint;
  amount: bigint;
  daily_rate: string;
  cap_percentage: string;
  roi_paid: bigint;
  start_date: string;
  last_roi_date: string | null;
};

async function creditChunk(tx: Tx, stakes: StakeRow[], date: string, result: RoiResult): Promise<void> {
  const entries: EntryInput[] = [];
  const meta = new Map<string, { stake: StakeRow; day: string; amount: bigint }>();
  const updates: { id: bigint; paid: bigint; last: string; completed: boolean }[] = [];
  for (const s of stakes) {
    const amount = BigInt(s.amount);
    const perDay = percentOf(amount, s.daily_rate);
    const cap = percentOf(amount, s.cap_percentage);
    let paid = BigInt(s.roi_paid);
    let day = addDays(s.last_roi_date ?? s.start_date, 1);
    let last = s.last_roi_date ?? s.start_date;
    while (day <= date && paid < cap && perDay > 0n) {
      const credit = perDay < cap - paid ? perDay : cap - paid;
      const key = `roi:${s.id}:${day}`;
      entries.push({
        key,
        kind: 'roi',
        userId: s.user_id,
        memo: `ROI ${day} on stake #${s.id}`,
        postings: [
          { account: ledger.systemAccount(ledger.SYSTEM.roiExpense), amount: -credit },
          { account: ledger.userAccount(s.user_id, 'income'), amount: credit },
        ],
      });
      meta.set(key, { stake: s, day, amount: credit });
      paid += credit;
      last = day;
      day = addDays(day, 1);
    }
    // A stake that cannot earn (a zero rate) still moves on, so it is not rescanned every run.
    if (perDay === 0n) last = date;
    updates.push({ id: s.id, paid, last, completed: paid >= cap });
  }
  const written = entries.length ? await postBatch(tx, entries) : new Set<string>();
  // Only what was written now counts: a racing run's credits are not counted twice.
  const paidNow = new Map<bigint, bigint>();
  const perUser = new Map<bigint, bigint>();
  const records = [];
  for (const key of written) {
    const m = meta.get(key)!;
    paidNow.set(m.stake.id, (paidNow.get(m.stake.id) ?? 0n) + m.amount);
    perUser.set(m.stake.user_id, (perUser.get(m.stake.user_id) ?? 0n) + m.amount);
    records.push({
      user_id: m.stake.user_id,
      type: 1 as const,
      amount: m.amount,
      note: `Daily ROI ${normalizePercent(String(m.stake.daily_rate))}% on stake #${m.stake.id} for ${m.day}`,
      source_id: String(m.stake.id),
      for_date: m.day,
      idempotency_key: key,
    });
    result.credits++;
    result.total += m.amount;
  }
  for (let i = 0; i < records.length; i += 2000)
    await tx
      .insertInto('income_records')
      .values(records.slice(i, i + 2000))
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
  if (perUser.size) {
    const rows = [...perUser.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    await sql`
      insert into user_totals (user_id, roi_income) values ${sql.join(rows.map(([u, a]) => sql`(${u}::bigint, ${a}::bigint)`))}
      on conflict (user_id) do update set roi_income = user_totals.roi_income + excluded.roi_income, updated_at = now()`.execute(tx);
  }
  if (updates.length) {
    await sql`
      update stakes s set roi_paid = s.roi_paid + u.paid_now, last_roi_date = u.last::date,
        status = case when u.completed then 'completed' else s.status end
      from (values ${sql.join(updates.map((u) => sql`(${u.id}::bigint, ${paidNow.get(u.id) ?? 0n}::bigint, ${u.last}::text, ${u.completed}::boolean)`))}) as u(id, paid_now, last, completed)
      where s.id = u.id`.execute(tx);
  }
  result.stakes += stakes.length;
  result.completed += updates.filter((u) => u.completed).length;
}
