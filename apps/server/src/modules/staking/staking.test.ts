import { usd } from '@app/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { createUser, fundDeposit, type TestUser } from '../../test/factories';
import { addDays, runRoi } from '../income/roi';
import * as ledger from '../ledger/service';
import { updateSettings } from '../settings/service';
import { utcDay } from '@app/core/days';
import { createStake } from './service';
import { roiDays } from '../../test/roi-credits';
import { inject } from '../../test/api';
import { income as incomeApi, staking } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { sendRawJson } from '../../test/raw-json';

describe('staking, ROI, referral and reward income', () => {
  const t = useTestApp();

  const stake = (u: TestUser, amount: unknown) => inject(t.app, staking.create, { token: u.token, body: { amount_usd: amount } });
  const balances = (u: TestUser) => ledger.getBalances(t.db, u.id);
  const wallet = async (u: TestUser) => (await inject(t.app, userApi.wallet, { token: u.token })).data();
  const income = async (u: TestUser, type: number, page = 1) =>
    (await inject(t.app, incomeApi.history, { token: u.token, query: { income_type: type, page } })).data();
  const ctx = () => ({ db: t.db, dbKind: t.ctx.dbKind });
  const backdate = (stakeId: bigint | string, day: string) => sql`update stakes set start_date = ${day}::date where id = ${BigInt(stakeId)}`.execute(t.db);

  it('stakes 100 at 0.5%: 0.5 a day, exactly 200 in total, then completed', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 100);
    expect((await stake(u, 100)).json()).toEqual({ success: true, message: 'Staking successful' });
    expect((await balances(u)).deposit).toBe(0n);
    const row = await t.db.selectFrom('stakes').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    const start = '2025-01-01';
    await backdate(row.id, start);
    const day1 = await runRoi(ctx(), addDays(start, 1));
    expect(day1.credits).toBe(1);
    expect((await balances(u)).income).toBe(usd('0.5'));
    // 400 days × 0.5 = 200: the run for day 450 credits the other 399 days and stops at the cap.
    const later = await runRoi(ctx(), addDays(start, 450));
    expect(later.credits).toBe(399);
    expect((await balances(u)).income).toBe(usd(200));
    const done = await t.db.selectFrom('stakes').select(['status', 'roi_paid']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(done).toEqual({ status: 'completed', roi_paid: usd(200) });
    expect((await runRoi(ctx(), addDays(start, 900))).credits).toBe(0);
    const w = await wallet(u);
    expect(w).toMatchObject({ balance: 200, deposit_balance: 0, total_staked: 100, total_income: 200 });
    const hist = await income(u, 1);
    expect(hist.pagination).toEqual({ total: 400, page: 1, perPage: 10 });
    expect(hist.data[0]).toMatchObject({ amount: 0.5, note: expect.stringContaining('Daily ROI 0.5%') });
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('catches up three days after three days down, once; a second run for the date credits nothing', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 50);
    const { stakeId } = await createStake(t.db, u.id, usd(50));
    await backdate(stakeId, '2025-03-01');
    const r = await runRoi(ctx(), '2025-03-04');
    expect(r.credits).toBe(3);
    expect((await balances(u)).income).toBe(usd('0.75'));
    expect((await runRoi(ctx(), '2025-03-04')).credits).toBe(0);
    expect((await runRoi(ctx(), '2025-03-03')).credits).toBe(0);
    expect((await balances(u)).income).toBe(usd('0.75'));
  });

  it('pays the sponsor 5% at once and never twice for the same stake', async () => {
    const sponsor = await createUser(t.db, t.ctx.secret);
    const u = await createUser(t.db, t.ctx.secret, { referrerId: sponsor.id });
    await fundDeposit(t.db, u.id, 100);
    await stake(u, 100);
    expect((await balances(sponsor)).income).toBe(usd(5));
    const { stakeId } = await t.db.selectFrom('stakes').select('id as stakeId').where('user_id', '=', u.id).executeTakeFirstOrThrow();
    // Posting the same referral event again writes nothing.
    await t.db.transaction().execute((tx) =>
      ledger.post(tx, {
        key: `referral:${stakeId}`,
        kind: 'referral',
        postings: [
          { account: ledger.systemAccount(ledger.SYSTEM.referralExpense), amount: -usd(5) },
          { account: ledger.userAccount(sponsor.id, 'income'), amount: usd(5) },
        ],
      }),
    );
    expect((await balances(sponsor)).income).toBe(usd(5));
    const h = await income(sponsor, 2);
    expect(h.data).toEqual([expect.objectContaining({ amount: 5, note: `Direct referral income from ${u.username}` })]);
    const info = (await inject(t.app, userApi.info, { token: sponsor.token })).data();
    expect(info.user_detail).toMatchObject({ direct_referral_income: 5, total_income: 5, balance: 5 });
  });

  it('pays L1 once at self 100 and direct 1000, and L2 later at direct 5000', async () => {
    const leader = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, leader.id, 100);
    await stake(leader, 100);
    const d1 = await createUser(t.db, t.ctx.secret, { referrerId: leader.id });
    await fundDeposit(t.db, d1.id, 6000);
    await stake(d1, 900);
    expect((await t.db.selectFrom('users').select('eligible_level').where('id', '=', leader.id).executeTakeFirstOrThrow()).eligible_level).toBe(0);
    await stake(d1, 100); // direct investment reaches 1000
    const r1 = await income(leader, 3);
    expect(r1.data.map((x) => x.amount)).toEqual([100]);
    await stake(d1, 1000);
    expect((await income(leader, 3)).data.length).toBe(1);
    await stake(d1, 3000); // 5000
    const r2 = await income(leader, 3);
    expect(r2.data.map((x) => [x.amount, x.note])).toEqual([
      [500, 'Reward level L2 achieved'],
      [100, 'Reward level L1 achieved'],
    ]);
    const info = (await inject(t.app, userApi.info, { token: leader.token })).data();
    expect(info.eligible_level).toBe(2);
    // 5% of 5000 in referral income + 600 in rewards
    expect((await balances(leader)).income).toBe(usd(250 + 600));
    const levels = (await inject(t.app, incomeApi.rewardLevels, { token: leader.token })).data();
    expect(levels.slice(0, 3).map((l) => l.achieved)).toEqual([true, true, false]);
    expect(levels[0]).toMatchObject({ level: 1, self_investment: 100, direct_investment: 1000, reward: 100 });
  });

  it('keeps each stake on its own rate after a settings change', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 200);
    const old = await createStake(t.db, u.id, usd(100));
    await updateSettings(t.db, { roi_income_percentage: '1.0' });
    const fresh = await createStake(t.db, u.id, usd(100));
    await updateSettings(t.db, { roi_income_percentage: '0.5' });
    await backdate(old.stakeId, '2025-05-01');
    await backdate(fresh.stakeId, '2025-05-01');
    await runRoi(ctx(), '2025-05-02');
    const rows = await t.db.selectFrom('stakes').select(['id', 'roi_paid', 'daily_rate']).where('user_id', '=', u.id).orderBy('id').execute();
    expect(rows.map((r) => r.roi_paid)).toEqual([usd('0.5'), usd(1)]);
  });

  it('marks the user active with today as active date on the first stake', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 60);
    await stake(u, 60);
    const profile = (await inject(t.app, userApi.profile, { token: u.token })).data();
    expect(profile).toMatchObject({ status: 'active', active_date: utcDay() });
    const hist = (await inject(t.app, staking.history, { token: u.token, query: { page: 1, per_page: 10 } })).data();
    expect(hist.data).toEqual([expect.objectContaining({ type: 'stake', amount_usd: 60, status: 'active' })]);
    const info = (await inject(t.app, userApi.info, { token: u.token })).data();
    expect(info.activity).toEqual([expect.objectContaining({ recordType: 'staking', amount_usd: 60, status: 'active' })]);
  });

  it('sends the progress of each stake in its history: start, days elapsed, ROI earned and the cap', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 300);
    const first = await createStake(t.db, u.id, usd(100));
    await updateSettings(t.db, { stake_cap_percentage: '150' });
    try {
      await createStake(t.db, u.id, usd(200));
    } finally {
      await updateSettings(t.db, { stake_cap_percentage: '200' });
    }
    const today = utcDay();
    const start = addDays(today, -3);
    await backdate(first.stakeId, start);
    await runRoi(ctx(), today);
    const hist = (await inject(t.app, staking.history, { token: u.token, query: { page: 1, per_page: 1 } })).data();
    expect(hist.pagination).toEqual({ total: 2, page: 1, perPage: 1 });
    // Newest first: the 200 stake at a 150% cap, started today, nothing earned yet.
    expect(hist.data).toEqual([expect.objectContaining({ amount_usd: 200, start_date: today, days_elapsed: 0, earned: 0, cap: 300, status: 'active' })]);
    const page2 = (await inject(t.app, staking.history, { token: u.token, query: { page: 2, per_page: 1 } })).data();
    // 0.5% of 100 for each of the 3 days since its start.
    expect(page2.data).toEqual([
      expect.objectContaining({ id: String(first.stakeId), amount_usd: 100, start_date: start, days_elapsed: 3, earned: 1.5, cap: 200 }),
    ]);
  });

  it.each([
    [-10, 'Minimum staking amount is $50'],
    [0, 'Minimum staking amount is $50'],
    ['NaN', 'Amount must be a number'],
    ['100', 'Amount must be a number'],
    [50.0000001, 'Amount must be a multiple of 10'],
    [40, 'Minimum staking amount is $50'],
    [55, 'Amount must be a multiple of 10'],
    [undefined, 'Amount is required'],
    [500, 'Insufficient balance'],
  ])('refuses amount_usd %j with %s and changes nothing', async (amount, message) => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 100);
    const before = await ledger.verify(t.db);
    const res = await stake(u, amount);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors.amount_usd).toBe(message);
    const after = await ledger.verify(t.db);
    expect(after.entries).toBe(before.entries);
    expect((await balances(u)).deposit).toBe(usd(100));
  });

  it('answers malformed JSON and a missing body with 400', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const raw = await sendRawJson(t.app, staking.create, u.token, '{"amount_usd":');
    expect(raw.statusCode).toBe(400);
    const none = await inject(t.app, staking.create, { token: u.token });
    expect(none.statusCode).toBe(400);
  });

  it('returns the settings', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const s = (await inject(t.app, userApi.settings, { token: u.token })).json();
    expect(s).toEqual({
      success: true,
      data: { settings: { roi_income_percentage: 0.5, direct_referral_percentage: 5, stake_cap_percentage: 200, withdrawal_fee_percentage: 5 } },
    });
  });

  it.runIf(testDbKind === 'postgres')('never overdraws under 30 parallel stakes against one balance (PostgreSQL)', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 500);
    const res = await Promise.all(Array.from({ length: 30 }, () => stake(u, 50)));
    expect(res.filter((r) => r.statusCode === 200).length).toBe(10);
    expect(res.filter((r) => r.statusCode === 400).every((r) => r.json().message === 'Insufficient balance')).toBe(true);
    expect((await balances(u)).deposit).toBe(0n);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it.runIf(testDbKind === 'postgres')('two ROI runs started at the same moment credit each stake-day once (PostgreSQL)', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(t.db, t.ctx.secret)));
    for (const u of users) {
      await fundDeposit(t.db, u.id, 100);
      const { stakeId } = await createStake(t.db, u.id, usd(100));
      await backdate(stakeId, '2026-01-01');
    }
    await Promise.all([runRoi(ctx(), '2026-01-05'), runRoi(ctx(), '2026-01-05')]);
    for (const u of users) {
      expect((await balances(u)).income).toBe(usd(2));
      expect(await roiDays(t.db, u.id)).toEqual(['2026-01-02', '2026-01-03', '2026-01-04', '2026-01-05']);
    }
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });
});
