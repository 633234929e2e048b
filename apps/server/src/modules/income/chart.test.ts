import { usd } from '@app/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, fundDeposit } from '../../test/factories';
import { inject } from '../../test/api';
import { income, staking } from '@app/core/contracts/money';
import { withTx } from '../../db/tx';
import * as ledger from '../ledger/service';
import { utcDay } from '@app/core/days';
import { incomeChart } from './chart';

describe('GET /api/user/income-chart', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  let seq = 0;
  const record = (userId: bigint, type: 2 | 3, amount: string, createdAt: string, forDate: string | null = null) =>
    t.db
      .insertInto('income_records')
      .values({
        user_id: userId,
        type,
        amount: usd(amount),
        note: 'test',
        source_id: null,
        for_date: forDate,
        idempotency_key: `chart-test:${++seq}`,
        created_at: new Date(createdAt),
      })
      .execute();
  /** An ROI credit as the ROI job writes it: a ledger entry roi:<stake>:<day> (no income record, migration 0137). */
  const roiCredit = async (userId: bigint, amount: string, createdAt: string, forDate: string) => {
    const key = `roi:${9_000_000 + ++seq}:${forDate}`;
    await withTx(t.db, (tx) =>
      ledger.post(tx, {
        key,
        kind: 'roi',
        userId,
        postings: [
          { account: ledger.systemAccount(ledger.SYSTEM.roiExpense), amount: -usd(amount) },
          { account: ledger.userAccount(userId, 'income'), amount: usd(amount) },
        ],
      }),
    );
    await t.db
      .updateTable('ledger_entries')
      .set({ created_at: new Date(createdAt) })
      .where('idempotency_key', '=', key)
      .execute();
  };
  const chart = (token: string, query?: Record<string, string>) => inject(t.app, income.chart, { token, query });

  it('sums each UTC day by type exactly, counts ROI on the day it is for, and answers every day of the range', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const other = await createUser(t.db, t.ctx.secret);
    // 2026-03-10 is "today" (UTC). 0.1 + 0.2 must be 0.3, not 0.30000000000000004.
    await roiCredit(u.id, '0.1', '2026-03-10T00:05:00Z', '2026-03-09');
    await roiCredit(u.id, '0.2', '2026-03-10T00:05:00Z', '2026-03-09');
    await roiCredit(u.id, '0.5', '2026-03-10T00:05:00Z', '2026-03-10');
    await record(u.id, 2, '12.345678', '2026-03-10T23:59:59Z');
    await record(u.id, 3, '100', '2026-03-04T00:00:00Z');
    // Out of the 7-day range: the day before its first day, and tomorrow.
    await record(u.id, 2, '7', '2026-03-03T23:59:59Z');
    await record(u.id, 2, '9', '2026-03-11T00:00:00Z');
    // Another user's income on the same days.
    await roiCredit(other.id, '50', '2026-03-10T01:00:00Z', '2026-03-10');
    await record(other.id, 2, '60', '2026-03-09T01:00:00Z');

    const c = await incomeChart(t.db, u.id, 7, new Date('2026-03-10T12:00:00Z'));
    expect(c).toMatchObject({ days: 7, from: '2026-03-04', to: '2026-03-10' });
    expect(c.points.map((p) => p.date)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(c.points[0]).toEqual({ date: '2026-03-04', roi: 0, referral: 0, reward: 100, total: 100 });
    for (const p of c.points.slice(1, 5)) expect(p).toEqual({ date: p.date, roi: 0, referral: 0, reward: 0, total: 0 });
    expect(c.points[5]).toEqual({ date: '2026-03-09', roi: 0.3, referral: 0, reward: 0, total: 0.3 });
    expect(c.points[6]).toEqual({ date: '2026-03-10', roi: 0.5, referral: 12.345678, reward: 0, total: 12.845678 });
    expect(c.totals).toEqual({ roi: 0.8, referral: 12.345678, reward: 100, total: 113.145678 });

    const o = await incomeChart(t.db, other.id, 7, new Date('2026-03-10T12:00:00Z'));
    expect(o.totals).toEqual({ roi: 50, referral: 60, reward: 0, total: 110 });
  });

  it('answers 30 days by default with zeros for a user with no income, and the referral a stake pays today', async () => {
    const sponsor = await createUser(t.db, t.ctx.secret);
    const res = await chart(sponsor.token);
    expect(res.statusCode).toBe(200);
    const empty = res.data();
    expect(empty.days).toBe(30);
    expect(empty.points).toHaveLength(30);
    expect(empty.to).toBe(utcDay());
    expect(empty.points.every((p) => p.total === 0)).toBe(true);
    expect(empty.totals).toEqual({ roi: 0, referral: 0, reward: 0, total: 0 });

    const staker = await createUser(t.db, t.ctx.secret, { referrerId: sponsor.id });
    await fundDeposit(t.db, staker.id, 100);
    expect((await inject(t.app, staking.create, { token: staker.token, body: { amount_usd: 100 } })).statusCode).toBe(200);
    const after = (await chart(sponsor.token, { days: '90' })).data();
    expect(after.points).toHaveLength(90);
    expect(after.points.at(-1)).toEqual({ date: utcDay(), roi: 0, referral: 5, reward: 0, total: 5 });
    expect(after.totals.total).toBe(5);
    expect((await chart(staker.token, { days: '7' })).data().totals.total).toBe(0);
  });

  it.each(['0', '1', '31', '365', 'abc', '30.5', '-7'])('refuses days=%s with 400', async (days) => {
    const u = await createUser(t.db, t.ctx.secret);
    const res = await chart(u.token, { days });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
    expect(JSON.stringify(res.json())).toContain('days must be 7, 30 or 90');
  });

  it('refuses a caller without a token', async () => {
    expect((await inject(t.app, income.chart)).statusCode).toBe(401);
  });
});
