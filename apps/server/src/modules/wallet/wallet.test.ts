import { usd } from '@app/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { auth, createUser, fundDeposit, fundIncome } from '../../test/factories';
import { runRoi } from '../income/roi';
import * as ledger from '../ledger/service';
import { createStake } from '../staking/service';
import * as team from '../team/service';
import { completeWithdrawal, createWithdrawal } from '../withdrawals/service';

describe('GET /api/user/wallet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  /** A user as sign-up makes one: the factory row plus the team counters sign-up keeps. */
  const member = async (referrerId: bigint | null = null) => {
    const u = await createUser(t.db, t.ctx.secret, { referrerId });
    await t.db.transaction().execute((tx) => team.onUserCreated(tx, u.id, referrerId));
    return u;
  };
  const wallet = async (token: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/wallet', headers: auth(token) });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('answers zeros for a new user, in the spec’s shape', async () => {
    const u = await member();
    expect(await wallet(u.token)).toEqual({
      success: true,
      data: {
        user_id: String(u.id),
        balance: 0,
        deposit_balance: 0,
        total_staked: 0,
        total_income: 0,
        total_withdraw: 0,
        total_directs: 0,
        total_direct_business: 0,
        total_network: 0,
        team_business: { users: 0, amount: 0 },
      },
    });
  });

  it('shows balances, totals and team figures after stakes, income and a paid withdrawal', async () => {
    const root = await member();
    const a = await member(root.id);
    const b = await member(root.id);
    const c = await member(a.id); // root's network: a, b, c
    await fundDeposit(t.db, root.id, '1000.25');
    await fundDeposit(t.db, a.id, 200);
    await fundDeposit(t.db, c.id, 50);
    await createStake(t.db, root.id, usd(100), new Date('2025-01-01T08:00:00Z'));
    await createStake(t.db, a.id, usd(200)); // root earns 10 (5%)
    await createStake(t.db, c.id, usd(50)); // a earns 2.5; root nothing (not direct)
    await runRoi(t.ctx, '2025-01-03'); // root's stake: 2 days × 0.5
    await fundIncome(t.db, root.id, 19); // income 10 + 1 + 19 = 30
    const w = await createWithdrawal(t.db, root.id, { amount_usd: 20, network: 'BSC', wallet_address: `0x${'ab'.repeat(20)}`, token: 'USDT' });
    await completeWithdrawal(t.db, w.id, { txHash: `0x${'12'.repeat(32)}` });

    const data = (await wallet(root.token)).data;
    expect(data).toEqual({
      user_id: String(root.id),
      balance: 10,
      deposit_balance: 900.25,
      total_staked: 100,
      total_income: 11, // referral 10 + ROI 1 (test funding is not income)
      total_withdraw: 20,
      total_directs: 2,
      total_direct_business: 200,
      total_network: 3,
      team_business: { users: 2, amount: 250 },
    });
    // The same figures as the ledger's cached balances and totals.
    const balances = await ledger.getBalances(t.db, root.id);
    expect([balances.income, balances.deposit]).toEqual([usd(10), usd('900.25')]);
    const summary = await team.getTeamSummary(t.db, root.id);
    expect(summary).toEqual({ total_directs: 2, total_direct_business: usd(200), total_network: 3, team_business: { users: 2, amount: usd(250) } });

    const aw = (await wallet(a.token)).data;
    expect(aw).toMatchObject({
      balance: 2.5,
      deposit_balance: 0,
      total_staked: 200,
      total_income: 2.5,
      total_directs: 1,
      total_direct_business: 50,
      total_network: 1,
      team_business: { users: 1, amount: 50 },
    });
    expect((await wallet(b.token)).data).toMatchObject({ balance: 0, total_staked: 0, total_directs: 0, total_network: 0 });
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('shows another user’s wallet to nobody: each token reads its own', async () => {
    const x = await member();
    const y = await member();
    await fundDeposit(t.db, x.id, 70);
    expect((await wallet(x.token)).data.deposit_balance).toBe(70);
    expect((await wallet(y.token)).data.deposit_balance).toBe(0);
  });
});
