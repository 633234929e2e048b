import { usd } from '@app/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import * as ledger from '../ledger/service';
import { createStake } from '../staking/service';
import { getTeamSummary, onUserCreated } from '../team/service';
import { completeWithdrawal, rejectWithdrawal } from '../withdrawals/service';
import { EVM, inject, TRON, withdrawer } from '../../test/api';
import { history, staking, team, transfers } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { roiCredits } from '../../test/roi-credits';
import { propertySeed } from '../../test/property-knobs';
import { seededRandom } from '../../test/seeded-random';
import { expectRefusedWithdrawal } from '../../test/refused-withdrawal';

describe('team, transfers, withdrawals and history', () => {
  const t = useTestApp();
  const withdraw = withdrawer(t);
  const expectRefused = expectRefusedWithdrawal(t);

  /** A user created the way sign-up does it: with team counters. */
  async function member(sponsor?: TestUser) {
    const u = await createUser(t.db, t.ctx.secret, { referrerId: sponsor?.id ?? null });
    await t.db.transaction().execute((tx) => onUserCreated(tx, u.id, sponsor?.id ?? null));
    return u;
  }
  const send = (u: TestUser, body: Record<string, unknown>) => inject(t.app, transfers.create, { token: u.token, body });
  const bal = (u: TestUser) => ledger.getBalances(t.db, u.id);
  const entries = async () => (await ledger.verify(t.db)).entries;

  it('moves deposit to deposit and income to income; both parties see the record', async () => {
    const a = await member();
    const b = await member();
    await fundDeposit(t.db, a.id, 100);
    await fundIncome(t.db, a.id, 50);
    const r1 = await send(a, { username: b.username.toLowerCase(), amount_usd: 25.5, type: 'deposit' });
    expect(r1.json()).toMatchObject({ success: true, message: `Transfer of 25.5 USDT to ${b.username} successful` });
    const r2 = await send(a, { username: b.username, amount_usd: 10, type: 'withdraw' });
    expect(r2.statusCode).toBe(200);
    expect(await bal(a)).toEqual({ deposit: usd('74.5'), income: usd(40) });
    expect(await bal(b)).toEqual({ deposit: usd('25.5'), income: usd(10) });
    const mine = (await inject(t.app, transfers.list, { token: a.token, query: { page: 1, per_page: 10 } })).data();
    const theirs = (await inject(t.app, transfers.list, { token: b.token })).data();
    expect(mine.data.map((x) => [x.direction, x.type])).toEqual([
      ['sent', 'withdraw'],
      ['sent', 'deposit'],
    ]);
    expect(theirs.data[0]).toMatchObject({
      direction: 'received',
      sender_id: String(a.id),
      Sender: { username: a.username },
      Receiver: { username: b.username },
      amount_usd: 10,
    });
    const hist = (await inject(t.app, history.list, { token: b.token, query: { type: 'transfer' } })).data();
    expect(hist.data[0]).toMatchObject({ amount: 10, status: 'completed' });
  });

  it.each([
    ['oneself', (a: TestUser) => ({ username: a.username, amount_usd: 10, type: 'deposit' }), 400, 'You cannot transfer to yourself'],
    ['an unknown user', () => ({ username: 'ZZZZZZZZ9', amount_usd: 10, type: 'deposit' }), 404, 'User not found'],
    ['below 10', (_a: TestUser, b: TestUser) => ({ username: b.username, amount_usd: 9.99, type: 'deposit' }), 400, 'Minimum transfer amount is 10 USDT'],
    ['above the balance', (_a: TestUser, b: TestUser) => ({ username: b.username, amount_usd: 1000, type: 'deposit' }), 400, 'Insufficient balance'],
    ['from the empty income wallet', (_a: TestUser, b: TestUser) => ({ username: b.username, amount_usd: 10, type: 'withdraw' }), 400, 'Insufficient balance'],
    ['a bad type', (_a: TestUser, b: TestUser) => ({ username: b.username, amount_usd: 10, type: 'other' }), 400, 'Transfer type is required'],
    ['a malformed username', () => ({ username: 'abc', amount_usd: 10, type: 'deposit' }), 400, 'Username must be exactly 9 characters'],
    ['a string amount', (_a: TestUser, b: TestUser) => ({ username: b.username, amount_usd: '10', type: 'deposit' }), 400, 'Amount must be a number'],
  ])('refuses a transfer to %s and changes nothing', async (_name, body, status, message) => {
    const a = await member();
    const b = await member();
    await fundDeposit(t.db, a.id, 100);
    const before = await entries();
    const res = await send(a, body(a, b));
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
    expect(await entries()).toBe(before);
    expect((await bal(a)).deposit).toBe(usd(100));
  });

  it('refuses a transfer to a blocked user', async () => {
    const a = await member();
    const b = await member();
    await fundDeposit(t.db, a.id, 100);
    await t.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', b.id).execute();
    const res = await send(a, { username: b.username, amount_usd: 10, type: 'deposit' });
    expect(res.statusCode).toBe(404);
  });

  it('takes a withdrawal: full amount leaves income, fee 5% exact, receive 95%, pending', async () => {
    const u = await member();
    await fundIncome(t.db, u.id, 100);
    const res = await withdraw(u, { amount_usd: 30 });
    expect(res.json()).toMatchObject({ success: true, message: 'Withdrawal request created successfully!' });
    expect((await bal(u)).income).toBe(usd(70));
    const w = await t.db.selectFrom('withdrawals').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect([w.amount, w.fee, w.receive_amount, w.status]).toEqual([usd(30), usd('1.5'), usd('28.5'), 'pending']);
    const hist = (await inject(t.app, history.list, { token: u.token, query: { type: 'withdrawal' } })).data();
    expect(hist.total_withdrawals).toBe(30);
    expect(hist.data[0]).toMatchObject({ amount: -30, status: 'pending' });
    expect(JSON.parse(hist.data[0]!.extra ?? 'null')).toMatchObject({ wallet_address: EVM, expected_amount: 28.5 });
  });

  it.each([
    [{ amount_usd: 15 }, 'Amount must be a multiple of 10', 'amount_usd'],
    [{ amount_usd: 5 }, 'Minimum withdrawal amount is $10', 'amount_usd'],
    [{ amount_usd: 10, wallet_address: EVM.replace('E0F', 'e0F') }, 'Invalid wallet address for the selected network', 'wallet_address'],
    [{ amount_usd: 10, wallet_address: TRON }, 'Invalid wallet address for the selected network', 'wallet_address'],
    [{ amount_usd: 10, network: 'TRON', wallet_address: TRON.slice(0, -1) + 'u' }, 'Invalid wallet address for the selected network', 'wallet_address'],
    [{ amount_usd: 10, wallet_address: '' }, 'Wallet address is required', 'wallet_address'],
    [{ amount_usd: 10, network: 'ETH' }, 'Network is required', 'network'],
    [{ amount_usd: 500 }, 'Insufficient balance', 'amount_usd'],
  ])('refuses withdrawal %j with the message on the field', async (body, message, field) => {
    await expectRefused(await member(), body, message, field);
  });

  it('accepts valid addresses on each network (EIP-55 mixed case, all lower case, TRON)', async () => {
    const u = await member();
    await fundIncome(t.db, u.id, 100);
    expect((await withdraw(u, { amount_usd: 10, network: 'POLYGON', wallet_address: EVM })).statusCode).toBe(200);
    expect((await withdraw(u, { amount_usd: 10, network: 'BSC', wallet_address: EVM.toLowerCase() })).statusCode).toBe(200);
    expect((await withdraw(u, { amount_usd: 10, network: 'TRON', wallet_address: TRON })).statusCode).toBe(200);
  });

  it('rejects with an exact refund; completes once; a second complete is refused', async () => {
    const u = await member();
    await fundIncome(t.db, u.id, 100);
    await withdraw(u, { amount_usd: 40 });
    await withdraw(u, { amount_usd: 20 });
    const [w2, w1] = await t.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).orderBy('id', 'desc').execute();
    await rejectWithdrawal(t.db, w1!.id, { reason: 'Address on a sanctions list' });
    expect((await bal(u)).income).toBe(usd(80));
    await completeWithdrawal(t.db, w2!.id, { txHash: '0xabc' });
    await expect(completeWithdrawal(t.db, w2!.id, { txHash: '0xdef' })).rejects.toThrow('Withdrawal already processed');
    await expect(rejectWithdrawal(t.db, w2!.id, { reason: 'x' })).rejects.toThrow('Withdrawal already processed');
    expect((await bal(u)).income).toBe(usd(80));
    expect(await ledger.getSystemBalance(t.db, ledger.SYSTEM.withdrawalFees)).toBeGreaterThanOrEqual(usd(1));
    const wallet = (await inject(t.app, user.wallet, { token: u.token })).data();
    expect(wallet.total_withdraw).toBe(20);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('keeps team figures for a three-level tree', async () => {
    const a = await member();
    const b = await member(a);
    const c = await member(b);
    const d = await member(a);
    for (const [u, amount] of [
      [b, 100],
      [c, 200],
      [d, 50],
    ] as const) {
      await fundDeposit(t.db, u.id, amount);
      await createStake(t.db, u.id, usd(amount));
    }
    const ta = await getTeamSummary(t.db, a.id);
    expect(ta).toEqual({ total_directs: 2, total_direct_business: usd(150), total_network: 3, team_business: { users: 3, amount: usd(350) } });
    const tb = await getTeamSummary(t.db, b.id);
    expect(tb).toEqual({ total_directs: 1, total_direct_business: usd(200), total_network: 1, team_business: { users: 1, amount: usd(200) } });
    const wallet = (await inject(t.app, user.wallet, { token: a.token })).data();
    expect(wallet).toMatchObject({ total_directs: 2, total_direct_business: 150, total_network: 3, team_business: { users: 3, amount: 350 } });
    const directs = (await inject(t.app, team.directs, { token: a.token, query: { page: 1, per_page: 10 } })).data();
    expect(directs.data.map((m) => [m.username, m.status])).toEqual([
      [d.username, 'active'],
      [b.username, 'active'],
    ]);
    expect(directs.pagination).toEqual({ total: 2, page: 1, perPage: 10 });
  });

  it('answers bad paging and history types with 400', async () => {
    const u = await member();
    expect((await inject(t.app, history.list, { token: u.token, query: { type: 'nope' } })).statusCode).toBe(400);
    expect((await inject(t.app, team.directs, { token: u.token, query: { page: '0' } })).statusCode).toBe(400);
    expect((await inject(t.app, transfers.list, { token: u.token, query: { per_page: '1000' } })).statusCode).toBe(400);
  });

  it.runIf(testDbKind === 'postgres')('two admins completing the same withdrawal at once pay it once (PostgreSQL)', async () => {
    const u = await member();
    await fundIncome(t.db, u.id, 100);
    await withdraw(u, { amount_usd: 50 });
    const w = await t.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).executeTakeFirstOrThrow();
    const results = await Promise.allSettled([completeWithdrawal(t.db, w.id, { txHash: '0x1' }), completeWithdrawal(t.db, w.id, { txHash: '0x2' })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const paid = await sql<{ n: bigint }>`select count(*)::bigint as n from ledger_entries where idempotency_key = ${`withdrawal-complete:${w.id}`}`.execute(
      t.db,
    );
    expect(paid.rows[0]!.n).toBe(1n);
  });

  it.runIf(testDbKind === 'postgres')('60 parallel clients racing stakes, transfers both ways and withdrawals never overdraw (PostgreSQL)', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => member()));
    let funded = 0n;
    for (const u of users) {
      await fundDeposit(t.db, u.id, 300);
      await fundIncome(t.db, u.id, 200);
      funded += usd(500);
    }
    // Who acts is drawn from the shared seed (FC_SEED, test/property-knobs.ts); the interleaving is the machine's.
    const random = seededRandom(propertySeed(197));
    const pick = () => users[Math.floor(random() * users.length)]!;
    const ops = Array.from({ length: 60 }, (_, i) => {
      const a = pick();
      let b = pick();
      while (b === a) b = pick();
      switch (i % 4) {
        case 0:
          return inject(t.app, staking.create, { token: a.token, body: { amount_usd: 50 + 10 * (i % 5) } });
        case 1:
          return send(a, { username: b.username, amount_usd: 10 + (i % 30), type: 'deposit' });
        case 2:
          return send(a, { username: b.username, amount_usd: 10 + (i % 20), type: 'withdraw' });
        default:
          return withdraw(a, { amount_usd: 10 * (1 + (i % 6)) });
      }
    });
    const res = await Promise.all(ops);
    expect(res.every((r) => r.statusCode === 200 || (r.statusCode === 400 && r.json().message === 'Insufficient balance'))).toBe(true);
    expect(res.some((r) => r.statusCode === 200)).toBe(true);
    const report = await ledger.verify(t.db);
    expect(report.ok).toBe(true);
    expect(report.negativeUserAccounts).toEqual([]);
    // What the four hold = funded − staked (left to staked principal) − withdrawals (left to payable) + income earned from stakes among them.
    const ids = users.map((u) => u.id);
    const held = await sql<{ s: bigint }>`select coalesce(sum(balance), 0)::bigint as s from ledger_accounts where user_id in (${sql.join(ids)})`.execute(t.db);
    const staked = await sql<{ s: bigint }>`select coalesce(sum(amount), 0)::bigint as s from stakes where user_id in (${sql.join(ids)})`.execute(t.db);
    const withdrawn = await sql<{ s: bigint }>`select coalesce(sum(amount), 0)::bigint as s from withdrawals where user_id in (${sql.join(ids)})`.execute(t.db);
    const earned = await sql<{ s: bigint }>`
      select coalesce(sum(amount), 0)::bigint as s from (select user_id, amount from income_records union all select user_id, amount from ${roiCredits} r) x
      where user_id in (${sql.join(ids)})`.execute(t.db);
    expect(BigInt(held.rows[0]!.s)).toBe(funded - BigInt(staked.rows[0]!.s) - BigInt(withdrawn.rows[0]!.s) + BigInt(earned.rows[0]!.s));
  });
});
