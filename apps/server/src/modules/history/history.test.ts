import { usd } from '@app/core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { history as historyApi, transfers, withdrawals } from '@app/core/contracts/money';
import * as ledger from '../ledger/service';
import { completeWithdrawal, rejectWithdrawal } from '../withdrawals/service';

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

type Rec = { id: string; createdAt: string; amount: number; amount_usd: number; status: string; extra: string };

describe('transaction history', () => {
  const t = useTestApp();

  const user = () => createUser(t.db, t.ctx.secret);
  const history = (u: TestUser, query: Record<string, string>) => inject(t.app, historyApi.list, { token: u.token, query });
  const withdraw = (u: TestUser, amount: number) =>
    inject(t.app, withdrawals.create, { token: u.token, body: { amount_usd: amount, network: 'POLYGON', wallet_address: EVM, token: 'USDT' } });
  const send = (u: TestUser, to: TestUser, amount: number, type: 'deposit' | 'withdraw') =>
    inject(t.app, transfers.create, { token: u.token, body: { username: to.username, amount_usd: amount, type } });

  it('lists withdrawals newest first with negative amounts, fee, hash and reason in extra; total_withdrawals = pending + completed', async () => {
    const u = await user();
    const other = await user();
    await fundIncome(t.db, u.id, 200);
    await fundIncome(t.db, other.id, 100);
    for (const a of [30, 40, 50]) expect((await withdraw(u, a)).statusCode).toBe(200);
    expect((await withdraw(other, 90)).statusCode).toBe(200);
    const [w30, w40] = await t.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).orderBy('id').execute();
    await completeWithdrawal(t.db, w30!.id, { txHash: '0xabc123' });
    await rejectWithdrawal(t.db, w40!.id, { reason: 'Address flagged' });

    const body = (await history(u, { type: 'withdrawal' })).json();
    expect(body.success).toBe(true);
    expect(body.data.pagination).toEqual({ total: 3, page: 1, perPage: 10 });
    expect(body.data.total_withdrawals).toBe(80); // 50 pending + 30 completed; the rejected 40 came back
    const recs = body.data.data as Rec[];
    expect(recs.map((r) => [r.amount, r.amount_usd, r.status])).toEqual([
      [-50, -50, 'pending'],
      [-40, -40, 'rejected'],
      [-30, -30, 'completed'],
    ]);
    expect(recs.every((r) => typeof r.id === 'string' && !Number.isNaN(Date.parse(r.createdAt)))).toBe(true);
    const [pending, rejected, completed] = recs.map((r) => JSON.parse(r.extra) as Record<string, unknown>);
    expect(pending).toMatchObject({
      wallet_address: EVM,
      network: 'POLYGON',
      fee: 2.5,
      expected_amount: 47.5,
      amount_received: null,
      last_transaction_hash: null,
      status: 'pending',
    });
    expect(rejected!.status_description).toContain('Address flagged');
    expect(completed).toMatchObject({
      fee: 1.5,
      expected_amount: 28.5,
      amount_received: 28.5,
      last_transaction_hash: '0xabc123',
      status: 'completed',
      created_at: recs[2]!.createdAt,
    });

    const page2 = (await history(u, { type: 'withdrawal', page: '2', per_page: '2' })).data();
    expect(page2.pagination).toEqual({ total: 3, page: 2, perPage: 2 });
    expect(page2.data.map((r) => r.amount)).toEqual([-30]);
  });

  it('lists transfers signed for the caller: negative when sent, positive when received, with direction and counterparty', async () => {
    const a = await user();
    const b = await user();
    await fundDeposit(t.db, a.id, 100);
    await fundIncome(t.db, b.id, 100);
    expect((await send(a, b, 25, 'deposit')).statusCode).toBe(200);
    expect((await send(b, a, 15.5, 'withdraw')).statusCode).toBe(200);

    const mine = (await history(a, { type: 'transfer' })).data();
    expect(mine.pagination.total).toBe(2);
    expect(mine.data.map((r) => [r.amount, r.amount_usd, r.status])).toEqual([
      [15.5, 15.5, 'completed'],
      [-25, -25, 'completed'],
    ]);
    const [received, sent] = mine.data.map((r) => JSON.parse(r.extra!));
    expect(received).toMatchObject({ direction: 'received', counterparty: b.username, amount_received: 15.5 });
    expect(sent).toMatchObject({ direction: 'sent', counterparty: b.username, amount_received: 25 });
    const theirs = (await history(b, { type: 'transfer' })).data();
    expect(theirs.data.map((r) => [r.amount, JSON.parse(r.extra!).direction, JSON.parse(r.extra!).counterparty])).toEqual([
      [-15.5, 'sent', a.username],
      [25, 'received', a.username],
    ]);
  });

  it('lists no deposits for a user without payments; total_deposits comes from the running totals', async () => {
    const u = await user();
    await t.db.transaction().execute((tx) => ledger.bumpTotals(tx, u.id, { total_deposited: usd('123.45') }));
    const body = (await history(u, { type: 'transaction' })).json();
    expect(body).toEqual({ success: true, data: { data: [], pagination: { total: 0, page: 1, perPage: 10 }, total_deposits: 123.45, total_withdrawals: 0 } });
  });

  it('answers 401 without a session and 400 for a missing or unknown type', async () => {
    const u = await user();
    expect((await inject(t.app, historyApi.list, { query: { type: 'transfer' } })).statusCode).toBe(401);
    for (const q of [{}, { type: 'deposit' }, { type: 'transfer', page: '0' }] as Record<string, string>[]) {
      const res = await history(u, q);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await history(u, { type: 'deposit' })).json().message).toBe('type must be transaction, withdrawal or transfer');
  });
});
