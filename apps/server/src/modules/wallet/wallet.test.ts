import { usd } from '@app/core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome } from '../../test/factories';
import { inject } from '../../test/api';
import { transfers } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { runRoi } from '../income/roi';
import * as ledger from '../ledger/service';
import { createStake } from '../staking/service';
import { hashToken } from '../auth/sessions';
import { getUserInfoOneStatement } from '../users/service';
import { getWallet } from './service';
import * as team from '../team/service';
import { completeWithdrawal, createWithdrawal } from '../withdrawals/service';
import { newUserWallet } from '../../test/wallets';

describe('GET /api/user/wallet', () => {
  const t = useTestApp();

  /** A user as sign-up makes one: the factory row plus the team counters sign-up keeps. */
  const member = async (referrerId: bigint | null = null) => {
    const u = await createUser(t.db, t.ctx.secret, { referrerId });
    await t.db.transaction().execute((tx) => team.onUserCreated(tx, u.id, referrerId));
    return u;
  };
  const wallet = async (token: string) => {
    const res = await inject(t.app, userApi.wallet, { token });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('answers zeros for a new user, in the spec’s shape', async () => {
    const u = await member();
    expect(await wallet(u.token)).toEqual({ success: true, data: newUserWallet(String(u.id)) });
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
  // The hot reads and the transfer authenticate from a per-process session cache; their own
  // statement checks the session again. A revocation made where this process's cache cannot hear of
  // it (another process, or SQL) must still be refused on the very next request.
  describe('session cache: a revocation elsewhere takes effect at once', () => {
    const hot = (token: string) => [
      inject(t.app, userApi.wallet, { token }),
      inject(t.app, userApi.info, { token }),
      inject(t.app, transfers.create, { token, body: { username: 'NOBODY123', amount_usd: 10, type: 'deposit' } }),
    ];

    it('answers 401 for a session deleted behind the cache, on every hot route', async () => {
      const u = await member();
      await fundDeposit(t.db, u.id, 20);
      for (const res of await Promise.all(hot(u.token).slice(0, 2))) expect(res.statusCode).toBe(200);
      await t.db.deleteFrom('sessions').where('user_id', '=', u.id).execute();
      for (const res of await Promise.all(hot(u.token))) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid or expired token' });
      }
      expect((await ledger.getBalances(t.db, u.id)).deposit).toBe(usd(20));
    });

    it('answers 403 for a user blocked behind the cache, and moves no money', async () => {
      const u = await member();
      const other = await member();
      await fundDeposit(t.db, u.id, 20);
      for (const res of await Promise.all(hot(u.token).slice(0, 2))) expect(res.statusCode).toBe(200);
      await t.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', u.id).execute();
      const [w, info] = await Promise.all(hot(u.token).slice(0, 2));
      const transfer = await inject(t.app, transfers.create, { token: u.token, body: { username: other.username, amount_usd: 10, type: 'deposit' } });
      for (const res of [w!, info!, transfer]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ success: false, code: 'FORBIDDEN', message: 'Your account has been blocked' });
      }
      expect((await ledger.getBalances(t.db, u.id)).deposit).toBe(usd(20));
      expect((await ledger.getBalances(t.db, other.id)).deposit).toBe(0n);
    });

    it('answers 401 for an expired session behind the cache', async () => {
      const u = await member();
      expect((await Promise.all(hot(u.token).slice(0, 2))).map((r) => r.statusCode)).toEqual([200, 200]);
      await t.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('user_id', '=', u.id)
        .execute();
      expect((await Promise.all(hot(u.token))).map((r) => r.statusCode)).toEqual([401, 401, 401]);
    });
  });
  it('answers readers that share one statement each with their own wallet, 401 or 403', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => member()));
    await Promise.all(users.map((u, i) => fundDeposit(t.db, u.id, 10 * (i + 1))));
    const [revoked, blocked] = [await member(), await member()];
    await t.db.deleteFrom('sessions').where('user_id', '=', revoked.id).execute();
    await t.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', blocked.id).execute();
    // Called in one turn: getWallet coalesces them into one statement (lib/coalesce.ts).
    const hash = (token: string) => hashToken(t.ctx.secret, token);
    const all = [...users, revoked, blocked, users[0]!].map((u) => getWallet(t.db, hash(u.token)));
    const settled = await Promise.allSettled(all);
    const values = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    users.forEach((u, i) => {
      expect(values[i]).toMatchObject({ user_id: String(u.id), deposit_balance: 10 * (i + 1) });
    });
    expect(values[7]).toMatchObject({ user_id: String(users[0]!.id), deposit_balance: 10 });
    expect(settled[5]).toMatchObject({ status: 'rejected', reason: { message: 'Invalid or expired token' } });
    expect(settled[6]).toMatchObject({ status: 'rejected', reason: { message: 'Your account has been blocked' } });
  });
  it('answers get-info readers that share one statement each with their own figures and activity', async () => {
    const [a, b, revoked] = [await member(), await member(), await member()];
    await fundDeposit(t.db, a.id, 300);
    await fundDeposit(t.db, b.id, 100);
    await createStake(t.db, a.id, usd(100));
    await createStake(t.db, a.id, usd(50));
    await t.db.deleteFrom('sessions').where('user_id', '=', revoked.id).execute();
    const hash = (token: string) => hashToken(t.ctx.secret, token);
    const settled = await Promise.allSettled([a, b, revoked].map((u) => getUserInfoOneStatement(t.db, hash(u.token))));
    const [ia, ib] = settled.map((s) => (s.status === 'fulfilled' ? s.value : undefined));
    expect(ia).toMatchObject({ username: a.username, user_detail: { deposit_balance: 150, total_staked: 150 } });
    expect(ia!.activity.map((x) => x.recordType)).toEqual(['staking', 'staking']);
    expect(ib).toMatchObject({ username: b.username, user_detail: { deposit_balance: 100, total_staked: 0 }, activity: [] });
    expect(settled[2]).toMatchObject({ status: 'rejected', reason: { message: 'Invalid or expired token' } });
  });
  it('marks a shared session as used when its readers share one statement, and not a blocked user’s', async () => {
    const [u, blocked] = [await member(), await member()];
    const hour = new Date(Date.now() - 3_600_000);
    await t.db.updateTable('sessions').set({ last_used_at: hour }).where('user_id', 'in', [u.id, blocked.id]).execute();
    await t.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', blocked.id).execute();
    const hash = (token: string) => hashToken(t.ctx.secret, token);
    await Promise.allSettled([u, u, u, blocked].map((x) => getWallet(t.db, hash(x.token))));
    await Promise.allSettled([u, blocked].map((x) => getUserInfoOneStatement(t.db, hash(x.token))));
    const usedAt = async (id: bigint) =>
      (await t.db.selectFrom('sessions').select('last_used_at').where('user_id', '=', id).executeTakeFirstOrThrow()).last_used_at!;
    // The touch is not awaited by the reader: wait for it to land.
    for (let i = 0; i < 100 && (await usedAt(u.id)).getTime() === hour.getTime(); i++) await new Promise((r) => setTimeout(r, 20));
    expect((await usedAt(u.id)).getTime()).toBeGreaterThan(hour.getTime());
    expect((await usedAt(blocked.id)).getTime()).toBe(hour.getTime());
  });
});
