import { usd } from '@app/core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { verifyLedgerAfterEach } from '../../test/ledger-check';
import { createUser, fundDeposit, type TestUser } from '../../test/factories';
import * as ledger from '../ledger/service';
import { replaceRewardLevels } from '../settings/service';
import { utcDay } from '@app/core/days';
import { createStake } from './service';
import { inject } from '../../test/api';
import type { Contract } from '@app/core/contracts/define';
import { income as incomeApi, staking } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { sendRawJson } from '../../test/raw-json';

/** Rules around a stake that the main staking suite does not cover: who may stake, who is paid, what the lists show. */
describe('stake rules', () => {
  const t = useTestApp();
  verifyLedgerAfterEach(() => t.db);

  const user = (opts: Parameters<typeof createUser>[2] = {}) => createUser(t.db, t.ctx.secret, opts);
  const stake = (u: TestUser, amount: unknown) => inject(t.app, staking.create, { token: u.token, body: { amount_usd: amount } });
  /** A new user, under `sponsor` if given, given `funds` of deposit who stakes `amount` of it. */
  const staker = async (funds: number, amount: number, sponsor?: TestUser) => {
    const u = await user({ referrerId: sponsor?.id ?? null });
    await fundDeposit(t.db, u.id, funds);
    await stake(u, amount);
    return u;
  };
  const income = (u: TestUser) => ledger.getBalances(t.db, u.id).then((b) => b.income);
  const rewards = (u: TestUser) =>
    t.db.selectFrom('income_records').select(['amount', 'note', 'source_id']).where('user_id', '=', u.id).where('type', '=', 3).orderBy('id').execute();
  const eligible = async (u: TestUser) =>
    (await t.db.selectFrom('users').select('eligible_level').where('id', '=', u.id).executeTakeFirstOrThrow()).eligible_level;

  it('refuses a stake from a blocked user with 403 and moves nothing', async () => {
    const u = await user();
    await fundDeposit(t.db, u.id, 100);
    await t.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', u.id).execute();
    const res = await stake(u, 50);
    expect(res.statusCode).toBe(403);
    expect(res.json().success).toBe(false);
    // Also when called below the route (a session that outlived the block).
    await expect(createStake(t.db, u.id, usd(50))).rejects.toMatchObject({ status: 403 });
    expect((await ledger.getBalances(t.db, u.id)).deposit).toBe(usd(100));
    expect(await t.db.selectFrom('stakes').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('pays no referral income to a blocked sponsor, but the stake goes through', async () => {
    const sponsor = await user({ status: 'blocked' });
    const u = await user({ referrerId: sponsor.id });
    await fundDeposit(t.db, u.id, 100);
    expect((await stake(u, 100)).statusCode).toBe(200);
    expect(await income(sponsor)).toBe(0n);
    expect(await t.db.selectFrom('income_records').select('id').where('user_id', '=', sponsor.id).execute()).toEqual([]);
    expect((await ledger.getTotals(t.db, sponsor.id)).referral_income).toBe(0n);
  });

  it('pays the sponsor 5% of every stake, each stake once, and counts it in referral_income', async () => {
    const sponsor = await user();
    const u = await user({ referrerId: sponsor.id });
    await fundDeposit(t.db, u.id, 330);
    await stake(u, 50);
    await stake(u, 280);
    expect(await income(sponsor)).toBe(usd('2.5') + usd(14));
    expect((await ledger.getTotals(t.db, sponsor.id)).referral_income).toBe(usd('16.5'));
    const rows = await t.db
      .selectFrom('income_records')
      .select(['amount', 'type', 'idempotency_key'])
      .where('user_id', '=', sponsor.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      [2, usd('2.5')],
      [2, usd(14)],
    ]);
    expect(rows.every((r) => /^referral:\d+$/.test(r.idempotency_key))).toBe(true);
    // The staker earns nothing from their own stake, and the grand-sponsor nothing either.
    expect(await income(u)).toBe(0n);
  });

  it('rewards the staker too: a leader whose directs already reached 1000 gets L1 on their own first stake', async () => {
    const leader = await user();
    const d = await user({ referrerId: leader.id });
    await fundDeposit(t.db, d.id, 1000);
    await stake(d, 1000);
    expect(await rewards(leader)).toEqual([]); // self investment 0: not met yet
    await fundDeposit(t.db, leader.id, 100);
    await stake(leader, 100);
    expect(await rewards(leader)).toEqual([{ amount: usd(100), note: 'Reward level L1 achieved', source_id: 'L1' }]);
    expect(await eligible(leader)).toBe(1);
    expect((await ledger.getTotals(t.db, leader.id)).reward_income).toBe(usd(100));
  });

  it('pays every level met at once, each once, and sets eligible_level to the highest', async () => {
    const leader = await user();
    await fundDeposit(t.db, leader.id, 100);
    await stake(leader, 100);
    const a = await user({ referrerId: leader.id });
    const b = await user({ referrerId: leader.id });
    await fundDeposit(t.db, a.id, 6000);
    await fundDeposit(t.db, b.id, 5000);
    await stake(a, 6000);
    await stake(b, 4000); // direct investment 10,000: L1, L2 and L3
    expect((await rewards(leader)).map((r) => [r.source_id, r.amount])).toEqual([
      ['L1', usd(100)],
      ['L2', usd(500)],
      ['L3', usd(1000)],
    ]);
    expect(await eligible(leader)).toBe(3);
    await stake(b, 1000); // still L3: nothing new
    expect((await rewards(leader)).length).toBe(3);
    // 5% of 11,000 + 1,600 in rewards
    expect(await income(leader)).toBe(usd(550 + 1600));
    const levels = (await inject(t.app, incomeApi.rewardLevels, { token: leader.token })).data();
    expect(levels.map((l) => [l.level, l.achieved])).toEqual([
      [1, true],
      [2, true],
      [3, true],
      [4, false],
      [5, false],
      [6, false],
      [7, false],
    ]);
  });

  it('needs the self investment as well: L5 waits for 500 staked by the leader', async () => {
    const leader = await staker(500, 100);
    await staker(50_000, 50_000, leader);
    expect(await eligible(leader)).toBe(4);
    expect((await rewards(leader)).map((r) => r.source_id)).toEqual(['L1', 'L2', 'L3', 'L4']);
    await stake(leader, 400); // self 500: L5
    expect((await rewards(leader)).map((r) => r.source_id)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5']);
    expect(await eligible(leader)).toBe(5);
  });

  it('never pays a level twice, even after an admin changes its reward', async () => {
    const leader = await staker(200, 100);
    await staker(1000, 1000, leader);
    expect((await rewards(leader)).map((r) => r.amount)).toEqual([usd(100)]);
    const saved = await t.db.selectFrom('reward_levels').selectAll().orderBy('level').execute();
    try {
      await replaceRewardLevels(t.db, [{ level: 1, self_investment: 100, direct_investment: 1000, reward: 150 }]);
      await stake(leader, 100);
      expect((await rewards(leader)).map((r) => r.amount)).toEqual([usd(100)]);
    } finally {
      await t.db.deleteFrom('reward_levels').execute();
      await t.db.insertInto('reward_levels').values(saved).execute();
    }
  });

  it('keeps active_date at the first stake and the status active on later stakes', async () => {
    const u = await user();
    await fundDeposit(t.db, u.id, 200);
    await createStake(t.db, u.id, usd(50), new Date('2025-02-03T23:59:00Z'));
    await createStake(t.db, u.id, usd(50), new Date('2025-02-10T10:00:00Z'));
    const row = await t.db.selectFrom('users').select(['status', 'active_date']).where('id', '=', u.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'active', active_date: '2025-02-03' });
    const stakes = await t.db.selectFrom('stakes').select(['start_date', 'daily_rate', 'cap_percentage']).where('user_id', '=', u.id).orderBy('id').execute();
    expect(stakes.map((s) => s.start_date)).toEqual(['2025-02-03', '2025-02-10']);
    expect(stakes.map((s) => [Number(s.daily_rate), Number(s.cap_percentage)])).toEqual([
      [0.5, 200],
      [0.5, 200],
    ]);
  });

  it('moves the amount from deposit to staked principal and into total_staked, nothing else', async () => {
    const u = await user();
    await fundDeposit(t.db, u.id, 75);
    const principalBefore = await ledger.getSystemBalance(t.db, ledger.SYSTEM.stakedPrincipal);
    expect((await stake(u, 70)).json()).toEqual({ success: true, message: 'Staking successful' });
    expect(await ledger.getBalances(t.db, u.id)).toEqual({ deposit: usd(5), income: 0n });
    expect((await ledger.getSystemBalance(t.db, ledger.SYSTEM.stakedPrincipal)) - principalBefore).toBe(usd(70));
    expect((await ledger.getTotals(t.db, u.id)).total_staked).toBe(usd(70));
    const entry = await t.db
      .selectFrom('ledger_entries')
      .select(['idempotency_key', 'kind'])
      .where('user_id', '=', u.id)
      .where('kind', '=', 'stake')
      .executeTakeFirstOrThrow();
    expect(entry.idempotency_key).toMatch(/^stake:\d+$/);
  });

  it('refuses the whole deposit plus one step: 400 Insufficient balance on amount_usd', async () => {
    const u = await user();
    await fundDeposit(t.db, u.id, 50);
    const res = await stake(u, 60);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
      errors: { amount_usd: 'Insufficient balance' },
    });
    // With no deposit account at all, too.
    const poor = await user();
    const none = await stake(poor, 50);
    expect(none.json()).toEqual({
      success: false,
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
      errors: { amount_usd: 'Insufficient balance' },
    });
    expect(await t.db.selectFrom('stakes').select('id').where('user_id', 'in', [u.id, poor.id]).execute()).toEqual([]);
  });

  it('answers a missing body and malformed JSON with 4xx and no ledger change', async () => {
    const u = await user();
    await fundDeposit(t.db, u.id, 100);
    const before = (await ledger.verify(t.db)).entries;
    const none = await inject(t.app, staking.create, { token: u.token });
    expect(none.statusCode).toBe(400);
    expect(none.json().success).toBe(false);
    const empty = await inject(t.app, staking.create, { token: u.token, body: {} });
    expect(empty.json()).toMatchObject({ message: 'Amount is required', errors: { amount_usd: 'Amount is required' } });
    const bad = await sendRawJson(t.app, staking.create, u.token, '{"amount_usd": 50');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
    const nullAmount = await stake(u, null);
    expect(nullAmount.statusCode).toBe(400);
    const huge = await stake(u, 1e30);
    expect(huge.statusCode).toBe(400);
    expect((await ledger.verify(t.db)).entries).toBe(before);
  });

  it('refuses every staking route without a token', async () => {
    const route = <C extends Contract>(c: C, input?: Parameters<typeof inject<C>>[2]) => ({ c, call: () => inject(t.app, c, input) });
    for (const { c, call } of [
      route(staking.create, { body: { amount_usd: 50 } }),
      route(staking.history),
      route(incomeApi.history, { query: { income_type: 1 } }),
      route(incomeApi.rewardLevels),
      route(userApi.wallet),
      route(userApi.settings),
    ]) {
      const res = await call();
      expect(res.statusCode, c.path).toBe(401);
    }
  });

  it('lists stakes newest first with pagination, and only the caller’s', async () => {
    const u = await user();
    const other = await user();
    await fundDeposit(t.db, u.id, 1000);
    await fundDeposit(t.db, other.id, 100);
    const amounts = [50, 60, 70, 80, 90];
    for (const [i, a] of amounts.entries()) await createStake(t.db, u.id, usd(a), new Date(Date.UTC(2025, 0, 1 + i)));
    await createStake(t.db, other.id, usd(100));
    const page1 = (await inject(t.app, staking.history, { token: u.token, query: { page: 1, per_page: 2 } })).data();
    expect(page1.pagination).toEqual({ total: 5, page: 1, perPage: 2 });
    expect(page1.data.map((r: { amount_usd: number }) => r.amount_usd)).toEqual([90, 80]);
    expect(page1.data[0]).toEqual({
      id: expect.any(String),
      createdAt: '2025-01-05T00:00:00.000Z',
      type: 'stake',
      amount_usd: 90,
      status: 'active',
      // its progress: started 2025-01-05, no ROI run yet, cap 200% of 90
      start_date: '2025-01-05',
      days_elapsed: Math.round((Date.parse(`${utcDay()}T00:00:00Z`) - Date.parse('2025-01-05T00:00:00Z')) / 86_400_000),
      earned: 0,
      cap: 180,
    });
    const page3 = (await inject(t.app, staking.history, { token: u.token, query: { page: 3, per_page: 2 } })).data();
    expect(page3.data.map((r: { amount_usd: number }) => r.amount_usd)).toEqual([50]);
    const dflt = (await inject(t.app, staking.history, { token: u.token })).data();
    expect(dflt.pagination).toEqual({ total: 5, page: 1, perPage: 10 });
    const tooBig = await inject(t.app, staking.history, { token: u.token, query: { per_page: 1000 } });
    expect(tooBig.statusCode).toBe(400);
  });
});
