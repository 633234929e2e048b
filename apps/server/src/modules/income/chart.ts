import { microToNumber } from '@app/core';
import type { TIncomeChart } from '@app/core/contracts';
import { utcDay } from '@app/core/days';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import * as ledger from '../ledger/service';
import './table';

const DAY_MS = 86_400_000;

/**
 * The income chart on /income: this user's income per UTC day and type over the last `days` days,
 * today included. A day is the day the income is for: an ROI credit's `for_date` (a catch-up run
 * credits past days), else the UTC day it was recorded. Every day of the range is present, with
 * zeros when nothing was earned. Sums are bigint micro-units added in the database (int8 sums are
 * exact numerics), converted once at the end.
 */
export async function incomeChart(db: Executor, userId: bigint, days: number, now = new Date()): Promise<TIncomeChart> {
  const to = utcDay(now);
  const from = utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * DAY_MS));
  const day = sql<string>`to_char(coalesce(for_date, (created_at at time zone 'UTC')::date), 'YYYY-MM-DD')`;
  const records = db
    .selectFrom('income_records')
    .select([day.as('day'), 'type', sql<string>`sum(amount)::text`.as('sum')])
    .where('user_id', '=', userId)
    // created_at bounds the scan with the (user_id, type, created_at) index; a credit is never
    // recorded before the day it is for, so nothing in the range is left out.
    .where('created_at', '>=', new Date(`${from}T00:00:00Z`))
    .where(sql<boolean>`coalesce(for_date, (created_at at time zone 'UTC')::date) between ${from}::date and ${to}::date`)
    .groupBy([day, 'type'])
    .execute();
  // ROI credits are read from the ledger (migration 0137); income_records holds referral and reward.
  const [rows, roi] = await Promise.all([records, ledger.roiIncomeByDay(db, userId, from, to)]);

  const byDay = new Map<string, { roi: bigint; referral: bigint; reward: bigint }>();
  for (let i = 0; i < days; i++) byDay.set(utcDay(new Date(Date.parse(`${from}T00:00:00Z`) + i * DAY_MS)), { roi: 0n, referral: 0n, reward: 0n });
  const totals = { roi: 0n, referral: 0n, reward: 0n };
  for (const r of rows) {
    const slot = byDay.get(r.day);
    if (!slot) continue;
    const field = r.type === 1 ? 'roi' : r.type === 2 ? 'referral' : 'reward';
    const amount = BigInt(r.sum);
    slot[field] += amount;
    totals[field] += amount;
  }
  for (const r of roi) {
    const slot = byDay.get(r.day);
    if (!slot) continue;
    slot.roi += r.sum;
    totals.roi += r.sum;
  }
  const money = (v: { roi: bigint; referral: bigint; reward: bigint }) => ({
    roi: microToNumber(v.roi),
    referral: microToNumber(v.referral),
    reward: microToNumber(v.reward),
    total: microToNumber(v.roi + v.referral + v.reward),
  });
  return {
    days,
    from,
    to,
    points: [...byDay].map(([date, v]) => ({ date, ...money(v) })),
    totals: money(totals),
  };
}
