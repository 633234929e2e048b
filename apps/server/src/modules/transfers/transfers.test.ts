import { usd } from '@app/core';
import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { transfers } from '@app/core/contracts/money';
import * as ledger from '../ledger/service';
import { countRows } from '../../test/count-rows';

describe('transfers between users', () => {
  const t = useTestApp();

  const user = () => createUser(t.db, t.ctx.secret);
  const send = (u: TestUser, body: Record<string, unknown>) => inject(t.app, transfers.create, { token: u.token, body });
  const list = (u: TestUser, query?: Record<string, string>) => inject(t.app, transfers.list, { token: u.token, query });
  const bal = (u: TestUser) => ledger.getBalances(t.db, u.id);
  const entries = async () => (await ledger.verify(t.db)).entries;
  const transferRows = () => countRows(t.db, 'transfers');
  /** `a` sends `body` and is refused with `status`, `message` as the answer's message and on `field`; no ledger entry or transfer row is written. */
  const expectRefused = async (a: TestUser, body: Record<string, unknown>, status: number, message: string, field: string) => {
    const [e0, r0] = [await entries(), await transferRows()];
    const res = await send(a, body);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, message, errors: { [field]: message } });
    expect([await entries(), await transferRows()]).toEqual([e0, r0]);
  };

  it('refuses a blocked receiver as an unknown user, on the username field, and writes nothing', async () => {
    const a = await user();
    const b = await createUser(t.db, t.ctx.secret, { status: 'blocked' });
    await fundDeposit(t.db, a.id, 100);
    await expectRefused(a, { username: b.username, amount_usd: 10, type: 'deposit' }, 404, 'User not found', 'username');
    expect(await bal(b)).toEqual({ deposit: 0n, income: 0n });
  });

  it('refuses more than the balance with the message on amount_usd and writes no transfer row', async () => {
    const a = await user();
    const b = await user();
    await fundDeposit(t.db, a.id, 50);
    await expectRefused(a, { username: b.username, amount_usd: 50.01, type: 'deposit' }, 400, 'Insufficient balance', 'amount_usd');
  });

  it('keeps the two wallets apart: a deposit transfer cannot spend income, nor a withdraw transfer the deposit balance', async () => {
    const a = await user();
    const b = await user();
    await fundIncome(t.db, a.id, 100);
    expect((await send(a, { username: b.username, amount_usd: 10, type: 'deposit' })).json().message).toBe('Insufficient balance');
    const c = await user();
    await fundDeposit(t.db, c.id, 100);
    expect((await send(c, { username: b.username, amount_usd: 10, type: 'withdraw' })).json().message).toBe('Insufficient balance');
    expect(await bal(a)).toEqual({ deposit: 0n, income: usd(100) });
    expect(await bal(c)).toEqual({ deposit: usd(100), income: 0n });
  });

  it('allows sending the whole balance to the last cent', async () => {
    const a = await user();
    const b = await user();
    await fundIncome(t.db, a.id, '23.45');
    const res = await send(a, { username: b.username, amount_usd: 23.45, type: 'withdraw' });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    expect(await bal(a)).toEqual({ deposit: 0n, income: 0n });
    expect(await bal(b)).toEqual({ deposit: 0n, income: usd('23.45') });
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it.each([
    [{ amount_usd: 10.001 }, 'Please enter a valid amount', 'amount_usd'],
    [{ amount_usd: 0 }, 'Please enter a valid amount', 'amount_usd'],
    [{ amount_usd: -20 }, 'Please enter a valid amount', 'amount_usd'],
    [{ amount_usd: undefined }, 'Amount is required', 'amount_usd'],
    [{ username: undefined }, 'Username is required', 'username'],
    [{ username: 'ABCDEFGH!' }, 'Username must be exactly 9 characters', 'username'],
    [{ type: undefined }, 'Transfer type is required', 'type'],
  ])('refuses %j with the spec message and changes nothing', async (patch, message, field) => {
    const a = await user();
    const b = await user();
    await fundDeposit(t.db, a.id, 100);
    await expectRefused(a, { username: b.username, amount_usd: 10, type: 'deposit', ...patch }, 400, message, field);
  });

  it('lists sent and received records with direction, filters by type and dates, and pages', async () => {
    const a = await user();
    const b = await user();
    const c = await user();
    await fundDeposit(t.db, a.id, 100);
    await fundIncome(t.db, b.id, 100);
    await fundDeposit(t.db, c.id, 100);
    expect((await send(a, { username: b.username, amount_usd: 11, type: 'deposit' })).statusCode).toBe(200);
    expect((await send(b, { username: a.username, amount_usd: 12, type: 'withdraw' })).statusCode).toBe(200);
    expect((await send(a, { username: b.username, amount_usd: 13, type: 'deposit' })).statusCode).toBe(200);
    expect((await send(c, { username: b.username, amount_usd: 14, type: 'deposit' })).statusCode).toBe(200); // not a's business
    // Spread the three a↔b transfers over three days.
    const ab = await t.db
      .selectFrom('transfers')
      .select(['id', 'amount'])
      .where((eb) => eb.or([eb('sender_id', '=', a.id), eb('receiver_id', '=', a.id)]))
      .orderBy('id')
      .execute();
    const days = ['2026-05-01T12:00:00Z', '2026-05-02T23:59:59Z', '2026-05-03T00:00:00Z'];
    for (const [i, row] of ab.entries())
      await t.db
        .updateTable('transfers')
        .set({ created_at: new Date(days[i]!) })
        .where('id', '=', row.id)
        .execute();

    /** The `i`th a↔b transfer as a's list shows it: `from` sent `amount_usd` of `type` to `to`. */
    const listedForA = (i: number, createdAt: string, amount_usd: number, from: TestUser, to: TestUser, type: string, direction: string) => ({
      id: String(ab[i]!.id),
      createdAt,
      amount_usd,
      sender_id: String(from.id),
      type,
      direction,
      Sender: { username: from.username },
      Receiver: { username: to.username },
    });
    const all = (await list(a)).data();
    expect(all.pagination).toEqual({ total: 3, page: 1, perPage: 10 });
    expect(all.data).toEqual([
      listedForA(2, '2026-05-03T00:00:00.000Z', 13, a, b, 'deposit', 'sent'),
      listedForA(1, '2026-05-02T23:59:59.000Z', 12, b, a, 'withdraw', 'received'),
      listedForA(0, '2026-05-01T12:00:00.000Z', 11, a, b, 'deposit', 'sent'),
    ]);
    const bSees = (await list(b)).data();
    expect(bSees.pagination.total).toBe(4);
    expect(bSees.data.map((r) => [r.amount_usd, r.direction]).sort()).toEqual([
      [11, 'received'],
      [12, 'sent'],
      [13, 'received'],
      [14, 'received'],
    ]);
    expect((await list(a, { type: 'withdraw' })).data().data.map((r) => r.amount_usd)).toEqual([12]);
    expect((await list(a, { type: 'deposit' })).data().data.map((r) => r.amount_usd)).toEqual([13, 11]);
    expect((await list(a, { type: '', start_date: '', end_date: '' })).data().pagination.total).toBe(3);
    expect((await list(a, { start_date: '2026-05-02', end_date: '2026-05-02' })).data().data.map((r) => r.amount_usd)).toEqual([12]);
    expect((await list(a, { start_date: '2026-05-02' })).data().data.map((r) => r.amount_usd)).toEqual([13, 12]);
    expect((await list(a, { end_date: '2026-05-01' })).data().data.map((r) => r.amount_usd)).toEqual([11]);
    const p2 = (await list(a, { page: '2', per_page: '2' })).data();
    expect(p2.pagination).toEqual({ total: 3, page: 2, perPage: 2 });
    expect(p2.data.map((r) => r.amount_usd)).toEqual([11]);
    expect((await list(c)).data().data.map((r) => r.direction)).toEqual(['sent']);
  });

  it('answers 401 without a session and 400 for a bad history filter', async () => {
    const a = await user();
    expect((await inject(t.app, transfers.create, { body: { username: a.username, amount_usd: 10, type: 'deposit' } })).statusCode).toBe(401);
    expect((await inject(t.app, transfers.list)).statusCode).toBe(401);
    expect((await list(a, { type: 'income' })).statusCode).toBe(400);
    expect((await list(a, { start_date: '01-05-2026' })).statusCode).toBe(400);
  });

  it.runIf(testDbKind === 'postgres')('40 transfers racing both ways between two users never deadlock and lose nothing (PostgreSQL)', async () => {
    const a = await user();
    const b = await user();
    await fundDeposit(t.db, a.id, 1000);
    await fundDeposit(t.db, b.id, 1000);
    const res = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 ? send(a, { username: b.username, amount_usd: 10 + i, type: 'deposit' }) : send(b, { username: a.username, amount_usd: 10 + i, type: 'deposit' }),
      ),
    );
    expect(res.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
    const aSent = Array.from({ length: 40 }, (_, i) => i)
      .filter((i) => i % 2)
      .reduce((s, i) => s + 10 + i, 0);
    const bSent = Array.from({ length: 40 }, (_, i) => i)
      .filter((i) => !(i % 2))
      .reduce((s, i) => s + 10 + i, 0);
    expect((await bal(a)).deposit).toBe(usd(1000 - aSent + bSent));
    expect((await bal(b)).deposit).toBe(usd(1000 - bSent + aSent));
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it.runIf(testDbKind === 'postgres')('30 parallel transfers of 10 from a balance of 100: exactly 10 go through (PostgreSQL)', async () => {
    const a = await user();
    const receivers = await Promise.all(Array.from({ length: 3 }, () => user()));
    await fundIncome(t.db, a.id, 100);
    const res = await Promise.all(Array.from({ length: 30 }, (_, i) => send(a, { username: receivers[i % 3]!.username, amount_usd: 10, type: 'withdraw' })));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(res.filter((r) => r.statusCode === 400 && r.json().message === 'Insufficient balance')).toHaveLength(20);
    expect(await bal(a)).toEqual({ deposit: 0n, income: 0n });
    const received = await Promise.all(receivers.map(async (r) => (await bal(r)).income));
    expect(received.reduce((s, x) => s + x, 0n)).toBe(usd(100));
    expect(
      Number(
        (
          await t.db
            .selectFrom('transfers')
            .select((eb) => eb.fn.countAll<bigint>().as('n'))
            .where('sender_id', '=', a.id)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(10);
  });
});
