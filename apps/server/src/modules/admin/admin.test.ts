import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, useTestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import type { Contract, InputOf } from '@app/core/contracts/define';
import { admin as adminApi } from '@app/core/contracts/admin';
import { health } from '@app/core/contracts/health';
import { staking, withdrawals } from '@app/core/contracts/money';
import { support } from '@app/core/contracts/support';
import { user as userApi } from '@app/core/contracts/user';
import { startFakeNowPayments } from '../../test/fake-nowpayments';
import { addDays } from '../income/roi';
import { utcDay } from '@app/core/days';

describe('admin API', () => {
  const t = useTestApp();
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    admin = await createUser(t.db, t.ctx.secret, { isAdmin: true, email: 'root@example.test' });
    user = await createUser(t.db, t.ctx.secret, { name: 'Plain Person' });
  });

  it('answers 401 without a token and 403 to a user token on every admin route', async () => {
    const id = { id: String(user.id) };
    const route = <C extends Contract>(c: C, params?: InputOf<C>['params']) => ({
      c,
      call: (token?: string) => inject(t.app, c, { params, token, body: c.method === 'GET' ? undefined : {} }),
    });
    const routes = [
      route(adminApi.users),
      route(adminApi.block, id),
      route(adminApi.unblock, id),
      route(adminApi.tickets),
      route(adminApi.closeTicket, { id: '1' }),
      route(adminApi.auditLog),
      route(adminApi.stats),
      route(adminApi.user, id),
      route(adminApi.payments),
      route(adminApi.settings),
      route(adminApi.saveSettings),
      route(adminApi.rewardLevels),
      route(adminApi.saveRewardLevels),
      route(adminApi.runRoi),
      route(adminApi.verifyLedger),
    ];
    for (const { c, call } of routes) {
      const none = await call();
      expect(none.statusCode, `${c.method} ${c.path} without token`).toBe(401);
      const asUser = await call(user.token);
      expect(asUser.statusCode, `${c.method} ${c.path} as user`).toBe(403);
    }
  });

  it('finds users by e-mail, name or username', async () => {
    const byName = await inject(t.app, adminApi.users, { token: admin.token, query: { q: 'plain' } });
    expect(byName.data().data.map((u) => u.username)).toEqual([user.username]);
    const byUsername = await inject(t.app, adminApi.users, { token: admin.token, query: { q: user.username.toLowerCase() } });
    expect(byUsername.data().pagination.total).toBe(1);
    const byEmail = await inject(t.app, adminApi.users, { token: admin.token, query: { q: 'root@' } });
    expect(byEmail.data().data[0]!.email).toBe('root@example.test');
  });

  it('blocks a user (sessions revoked, sign-in refused) and unblocks, each in the audit log', async () => {
    const victim = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, adminApi.block, { token: admin.token, params: { id: String(victim.id) } });
    expect(res.json()).toMatchObject({ success: true, data: { status: 'blocked' } });
    const after = await inject(t.app, support.list, { token: victim.token });
    expect(after.statusCode).toBe(401);
    await inject(t.app, adminApi.unblock, { token: admin.token, params: { id: String(victim.id) } });
    const log = await inject(t.app, adminApi.auditLog, { token: admin.token });
    const actions = log
      .data()
      .data.filter((e) => e.targetId === String(victim.id))
      .map((e) => [e.action, e.admin]);
    expect(actions).toEqual([
      ['user.unblock', 'root@example.test'],
      ['user.block', 'root@example.test'],
    ]);
  });

  it('closes a ticket with a remark, audited, and refuses closing it twice', async () => {
    const created = await inject(t.app, support.create, { token: user.token, body: { type: 'general', message: 'Please help me out' } });
    const id = created.data().id;
    const close = await inject(t.app, adminApi.closeTicket, { token: admin.token, params: { id }, body: { adminRemark: 'Done, thanks.' } });
    expect(close.json()).toMatchObject({ success: true, data: { status: 'closed', adminRemark: 'Done, thanks.' } });
    const again = await inject(t.app, adminApi.closeTicket, { token: admin.token, params: { id }, body: { adminRemark: 'x' } });
    expect(again.statusCode).toBe(409);
    const empty = await inject(t.app, adminApi.closeTicket, { token: admin.token, params: { id }, body: { adminRemark: '  ' } });
    expect(empty.statusCode).toBe(400);
    const log = await inject(t.app, adminApi.auditLog, { token: admin.token });
    expect(log.data().data[0]).toMatchObject({ action: 'ticket.close', targetId: id, after: expect.objectContaining({ adminRemark: 'Done, thanks.' }) });
  });

  it('changes settings with validation, audited, and the new rate applies to new stakes only', async () => {
    const bad = await inject(t.app, adminApi.saveSettings, { token: admin.token, body: { roi_income_percentage: -1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Daily ROI cannot be negative');
    const res = await inject(t.app, adminApi.saveSettings, { token: admin.token, body: { roi_income_percentage: 0.75 } });
    expect(res.data()).toMatchObject({ roi_income_percentage: 0.75, stake_cap_percentage: 200 });
    const s = (await inject(t.app, userApi.settings, { token: user.token })).data().settings;
    expect(s.roi_income_percentage).toBe(0.75);
    await inject(t.app, adminApi.saveSettings, { token: admin.token, body: { roi_income_percentage: 0.5 } });
    const log = (await inject(t.app, adminApi.auditLog, { token: admin.token })).data().data;
    expect(log[0]).toMatchObject({
      action: 'settings.update',
      before: expect.objectContaining({ roi_income_percentage: '0.75' }),
      after: expect.objectContaining({ roi_income_percentage: '0.5' }),
    });
  });

  it('edits reward levels (validated) and runs the ROI job for a date, both audited', async () => {
    const levels = (await inject(t.app, adminApi.rewardLevels, { token: admin.token })).data();
    expect(levels).toHaveLength(7);
    const gap = await inject(t.app, adminApi.saveRewardLevels, { token: admin.token, body: { levels: [{ ...levels[0]!, level: 2 }] } });
    expect(gap.statusCode).toBe(400);
    const saved = await inject(t.app, adminApi.saveRewardLevels, {
      token: admin.token,
      body: { levels: levels.map((l, i) => (i === 0 ? { ...l, reward: 150 } : l)) },
    });
    expect(saved.data()[0]).toMatchObject({ level: 1, reward: 150 });
    const roi = await inject(t.app, adminApi.runRoi, { token: admin.token, body: { date: '2020-01-01' } });
    expect(roi.json()).toMatchObject({ success: true, data: { date: '2020-01-01', credits: 0 } });
    const badDate = await inject(t.app, adminApi.runRoi, { token: admin.token, body: { date: 'yesterday' } });
    expect(badDate.statusCode).toBe(400);
    const log = (await inject(t.app, adminApi.auditLog, { token: admin.token })).data().data;
    expect(log.slice(0, 2).map((e) => e.action)).toEqual(['jobs.roi', 'reward_levels.update']);
  });

  it('shows stats, a user detail with ledger entries, and ledger verify', async () => {
    const rich = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, rich.id, 120);
    const stats = (await inject(t.app, adminApi.stats, { token: admin.token })).data();
    expect(stats.liabilities).toBeGreaterThanOrEqual(120);
    expect(stats.daily).toHaveLength(14);
    const detail = (await inject(t.app, adminApi.user, { token: admin.token, params: { id: String(rich.id) } })).data();
    expect(detail.balances).toEqual({ deposit: 120, income: 0 });
    expect(detail.ledger[0]!.postings).toContainEqual({ account: `${rich.username}:deposit`, amount: 120 });
    expect((await inject(t.app, adminApi.user, { token: admin.token, params: { id: '999999' } })).statusCode).toBe(404);
    const verify = (await inject(t.app, adminApi.verifyLedger, { token: admin.token })).data();
    expect(verify.ok).toBe(true);
  });

  it('maintenance mode answers 503 on the user API while the admin API keeps working', async () => {
    await inject(t.app, adminApi.saveSettings, { token: admin.token, body: { maintenance_mode: true } });
    const userCall = await inject(t.app, userApi.wallet, { token: user.token });
    expect(userCall.statusCode).toBe(503);
    expect(userCall.json()).toEqual({ success: false, code: 'MAINTENANCE', message: 'Server is under maintenance' });
    expect((await inject(t.app, adminApi.stats, { token: admin.token })).statusCode).toBe(200);
    expect((await inject(t.app, health.check)).statusCode).toBe(200);
    await inject(t.app, adminApi.saveSettings, { token: admin.token, body: { maintenance_mode: false } });
    expect((await inject(t.app, userApi.wallet, { token: user.token })).statusCode).toBe(200);
  });
});

describe('admin ROI run for a future date', () => {
  const tomorrow = addDays(utcDay(), 1);
  const later = addDays(utcDay(), 400);

  async function stakedUser(t: TestApp) {
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const user = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, user.id, 1000);
    const staked = await inject(t.app, staking.create, { token: user.token, body: { amount_usd: 1000 } });
    expect(staked.statusCode).toBe(200);
    const income = async () => (await inject(t.app, userApi.wallet, { token: user.token })).data().balance;
    return { admin, income };
  }

  it('is refused with a real gateway, and credits nothing: a future date would pay real income ahead of its day', async () => {
    const fake = await startFakeNowPayments({ apiKey: 'k', ipnSecret: 's', minAmountUsd: 1 });
    const t = await createTestApp({ PAYMENTS_GATEWAY: 'nowpayments', NOWPAYMENTS_API_URL: fake.url, NOWPAYMENTS_API_KEY: 'k', NOWPAYMENTS_IPN_SECRET: 's' });
    try {
      const { admin, income } = await stakedUser(t);
      for (const date of [tomorrow, later, '9999-12-31']) {
        const res = await inject(t.app, adminApi.runRoi, { token: admin.token, body: { date } });
        expect(res.statusCode, date).toBe(400);
        expect(res.json()).toMatchObject({
          success: false,
          message: 'ROI can only be run up to today (UTC) with a real payment gateway',
          errors: { date: 'ROI can only be run up to today (UTC) with a real payment gateway' },
        });
      }
      expect(await income()).toBe(0);
      const entries = await t.db.selectFrom('ledger_entries').select('id').where('kind', '=', 'roi').execute();
      expect(entries).toEqual([]);
      const today = await inject(t.app, adminApi.runRoi, { token: admin.token, body: { date: utcDay() } });
      expect(today.json()).toMatchObject({ success: true, data: { date: utcDay(), credits: 0 } });
    } finally {
      await t.close();
      await fake.close();
    }
  });

  it('still moves time forward in the sandbox (tests and demos)', async () => {
    const t = await createTestApp();
    try {
      const { admin, income } = await stakedUser(t);
      const res = await inject(t.app, adminApi.runRoi, { token: admin.token, body: { date: tomorrow } });
      expect(res.json()).toMatchObject({ success: true, data: { date: tomorrow, credits: 1 } });
      expect(await income()).toBe(5);
    } finally {
      await t.close();
    }
  });
});

// Review finding: '0x123' was accepted as a payout hash, shown to the user as an explorer link and mailed.
describe('admin completes a withdrawal only with a hash of its chain', () => {
  const t = useTestApp();

  async function pending(network: 'BSC' | 'TRON') {
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const user = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, user.id, 100);
    const wallet_address = network === 'BSC' ? '0x52908400098527886E0F7030069857D2E4169EE7' : 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const w = await inject(t.app, withdrawals.create, { token: user.token, body: { amount_usd: 50, network, wallet_address, token: 'USDT' } });
    expect(w.statusCode, w.body).toBe(200);
    const complete = (tx_hash: string) => inject(t.app, adminApi.completeWithdrawal, { token: admin.token, params: { id: w.data().id }, body: { tx_hash } });
    return { id: BigInt(w.data().id), complete };
  }
  const status = async (id: bigint) => (await t.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const hex = 'ab'.repeat(32);

  it('refuses a malformed hash and one of the other chain, changing nothing', async () => {
    const bsc = await pending('BSC');
    for (const bad of ['0x123', 'not a hash', `0x${hex}0`, `0x${'zz'.repeat(32)}`]) {
      const res = await bsc.complete(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Invalid transaction hash', errors: { tx_hash: 'Invalid transaction hash' } });
    }
    expect((await bsc.complete(hex)).json()).toMatchObject({ success: false, errors: { tx_hash: 'Invalid transaction hash for BSC (0x and 64 hex digits)' } });
    const tron = await pending('TRON');
    expect((await tron.complete(`0x${hex}`)).json()).toMatchObject({
      success: false,
      errors: { tx_hash: 'Invalid transaction hash for Tron (64 hex digits, no 0x)' },
    });
    expect([await status(bsc.id), await status(tron.id)]).toEqual(['pending', 'pending']);
    const entries = await t.db.selectFrom('ledger_entries').select('id').where('kind', '=', 'withdrawal_complete').execute();
    expect(entries).toEqual([]);
  });

  it("accepts the chain's own form", async () => {
    const bsc = await pending('BSC');
    expect((await bsc.complete(`0x${hex}`)).json()).toMatchObject({ success: true, data: { status: 'completed', tx_hash: `0x${hex}` } });
    const tron = await pending('TRON');
    expect((await tron.complete(hex.toUpperCase())).json()).toMatchObject({ success: true, data: { status: 'completed' } });
  });
});
