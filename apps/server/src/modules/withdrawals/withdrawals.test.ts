import { usd } from '@app/core';
import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import * as ledger from '../ledger/service';
import { updateSettings } from '../settings/service';
import { completeWithdrawal, rejectWithdrawal } from './service';
import { EVM, inject, TRON, withdrawer } from '../../test/api';
import { withdrawals } from '@app/core/contracts/money';
import { expectRefusedWithdrawal } from '../../test/refused-withdrawal';

describe('withdrawals', () => {
  const t = useTestApp();
  const withdraw = withdrawer(t);
  const expectRefused = expectRefusedWithdrawal(t);
  const user = () => createUser(t.db, t.ctx.secret);
  const bal = (u: TestUser) => ledger.getBalances(t.db, u.id);
  const entries = async () => (await ledger.verify(t.db)).entries;
  const sys = (k: (typeof ledger.SYSTEM)[keyof typeof ledger.SYSTEM]) => ledger.getSystemBalance(t.db, k);
  const rowsOf = (u: TestUser) => t.db.selectFrom('withdrawals').selectAll().where('user_id', '=', u.id).orderBy('id').execute();
  const withdrawn = async (u: TestUser) => (await ledger.getTotals(t.db, u.id)).total_withdrawn;

  it('stores the request exactly as asked: network, address, token, pending, no hash yet', async () => {
    const u = await user();
    await fundIncome(t.db, u.id, 100);
    const res = await withdraw(u, { amount_usd: 20, network: 'TRON', wallet_address: TRON });
    expect(res.json()).toEqual({ success: true, message: 'Withdrawal request created successfully!', data: { id: expect.any(String) } });
    const [w] = await rowsOf(u);
    expect(w).toMatchObject({
      id: BigInt(res.json().data.id),
      network: 'TRON',
      wallet_address: TRON,
      token: 'USDT',
      status: 'pending',
      tx_hash: null,
      reject_reason: null,
      processed_at: null,
    });
  });

  it('moves money on completion: payable → fee account (the fee) and payouts (the receive amount); total_withdrawn only then', async () => {
    const u = await user();
    await fundIncome(t.db, u.id, 100);
    const [payable0, fees0, payouts0] = [
      await sys(ledger.SYSTEM.withdrawalsPayable),
      await sys(ledger.SYSTEM.withdrawalFees),
      await sys(ledger.SYSTEM.payouts),
    ];
    expect((await withdraw(u, { amount_usd: 30 })).statusCode).toBe(200);
    expect(await sys(ledger.SYSTEM.withdrawalsPayable)).toBe(payable0 + usd(30));
    expect(await withdrawn(u)).toBe(0n);
    const [w] = await rowsOf(u);
    const done = await completeWithdrawal(t.db, w!.id, { txHash: '0xfeed' });
    expect(done.after).toMatchObject({ status: 'completed', tx_hash: '0xfeed', amount: 30, fee: 1.5, receive_amount: 28.5 });
    expect(await sys(ledger.SYSTEM.withdrawalsPayable)).toBe(payable0);
    expect(await sys(ledger.SYSTEM.withdrawalFees)).toBe(fees0 + usd('1.5'));
    expect(await sys(ledger.SYSTEM.payouts)).toBe(payouts0 + usd('28.5'));
    expect(await withdrawn(u)).toBe(usd(30));
    expect((await bal(u)).income).toBe(usd(70));
    const [after] = await rowsOf(u);
    expect(after!.processed_at).toBeInstanceOf(Date);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('a rejection returns the full amount (fee included) and never counts as withdrawn', async () => {
    const u = await user();
    await fundIncome(t.db, u.id, '47.25');
    expect((await withdraw(u, { amount_usd: 40 })).statusCode).toBe(200);
    expect((await bal(u)).income).toBe(usd('7.25'));
    const payable0 = await sys(ledger.SYSTEM.withdrawalsPayable);
    const [w] = await rowsOf(u);
    const r = await rejectWithdrawal(t.db, w!.id, { reason: 'Wrong network' });
    expect(r.after).toMatchObject({ status: 'rejected', reject_reason: 'Wrong network' });
    expect((await bal(u)).income).toBe(usd('47.25'));
    expect(await sys(ledger.SYSTEM.withdrawalsPayable)).toBe(payable0 - usd(40));
    expect(await withdrawn(u)).toBe(0n);
    await expect(completeWithdrawal(t.db, w!.id, { txHash: '0x1' })).rejects.toMatchObject({ status: 409, message: 'Withdrawal already processed' });
    await expect(rejectWithdrawal(t.db, w!.id, { reason: 'again' })).rejects.toMatchObject({ status: 409, message: 'Withdrawal already processed' });
    expect((await bal(u)).income).toBe(usd('47.25'));
  });

  it('answers 404 for an unknown withdrawal id', async () => {
    await expect(completeWithdrawal(t.db, 999_999_999n, { txHash: '0x1' })).rejects.toMatchObject({ status: 404, message: 'Withdrawal not found' });
    await expect(rejectWithdrawal(t.db, 999_999_999n, { reason: 'x' })).rejects.toMatchObject({ status: 404, message: 'Withdrawal not found' });
  });

  it('takes the fee from the settings, rounded down to the micro-unit', async () => {
    const u = await user();
    await fundIncome(t.db, u.id, 100);
    await updateSettings(t.db, { withdrawal_fee_percentage: '3.333333' });
    try {
      expect((await withdraw(u, { amount_usd: 10 })).statusCode).toBe(200);
    } finally {
      await updateSettings(t.db, { withdrawal_fee_percentage: '5' });
    }
    const [w] = await rowsOf(u);
    // 10 × 3.333333% = 0.3333333 → 0.333333 (the platform never keeps more than the rate)
    expect([w!.fee, w!.receive_amount]).toEqual([333_333n, 9_666_667n]);
    expect((await withdraw(u, { amount_usd: 20 })).statusCode).toBe(200);
    const [, w2] = await rowsOf(u);
    expect([w2!.fee, w2!.receive_amount]).toEqual([usd(1), usd(19)]);
  });

  it('spends only the income balance, never the deposit balance', async () => {
    const u = await user();
    await fundDeposit(t.db, u.id, 500);
    await fundIncome(t.db, u.id, 10);
    const before = await entries();
    const res = await withdraw(u, { amount_usd: 20 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Insufficient balance', errors: { amount_usd: 'Insufficient balance' } });
    expect(await entries()).toBe(before);
    expect(await rowsOf(u)).toEqual([]);
    expect((await withdraw(u, { amount_usd: 10 })).statusCode).toBe(200);
    expect(await bal(u)).toEqual({ deposit: usd(500), income: 0n });
  });

  it.each([
    ['an amount that is not a multiple of 10', { amount_usd: 10.5 }, 'Amount must be a multiple of 10', 'amount_usd'],
    ['a missing amount', { amount_usd: undefined }, 'Amount is required', 'amount_usd'],
    ['an amount sent as text', { amount_usd: '20' }, 'Amount must be a number', 'amount_usd'],
    ['a zero amount', { amount_usd: 0 }, 'Minimum withdrawal amount is $10', 'amount_usd'],
    ['a token other than USDT', { amount_usd: 10, token: 'USDC' }, 'Token is required', 'token'],
    ['a missing network', { amount_usd: 10, network: undefined }, 'Network is required', 'network'],
    ['an EVM address on TRON', { amount_usd: 10, network: 'TRON', wallet_address: EVM }, 'Invalid wallet address for the selected network', 'wallet_address'],
    [
      'a TRON address on POLYGON',
      { amount_usd: 10, network: 'POLYGON', wallet_address: TRON },
      'Invalid wallet address for the selected network',
      'wallet_address',
    ],
    [
      'an EVM address one hex digit short',
      { amount_usd: 10, wallet_address: EVM.slice(0, -1) },
      'Invalid wallet address for the selected network',
      'wallet_address',
    ],
    [
      'a mixed-case EVM address with one letter flipped, on POLYGON',
      { amount_usd: 10, network: 'POLYGON', wallet_address: EVM.replace('E4169EE7', 'E4169Ee7') },
      'Invalid wallet address for the selected network',
      'wallet_address',
    ],
    [
      'a TRON address with its last character changed',
      { amount_usd: 10, network: 'TRON', wallet_address: `${TRON.slice(0, -1)}7` },
      'Invalid wallet address for the selected network',
      'wallet_address',
    ],
    ['a blank address', { amount_usd: 10, wallet_address: '   ' }, 'Wallet address is required', 'wallet_address'],
  ])('refuses %s with the spec message and writes nothing', async (_name, patch, message, field) => {
    const u = await user();
    await expectRefused(u, patch, message, field);
    expect(await rowsOf(u)).toEqual([]);
    expect((await bal(u)).income).toBe(usd(100));
  });

  it('answers 401 without a session', async () => {
    const res = await inject(t.app, withdrawals.create, { body: { amount_usd: 10, network: 'BSC', wallet_address: EVM, token: 'USDT' } });
    expect(res.statusCode).toBe(401);
  });

  it.runIf(testDbKind === 'postgres')('a complete racing a reject: exactly one wins and the money goes one way only (PostgreSQL)', async () => {
    for (let round = 0; round < 5; round++) {
      const u = await user();
      await fundIncome(t.db, u.id, 100);
      await withdraw(u, { amount_usd: 60 });
      const [w] = await rowsOf(u);
      const [c, r] = await Promise.allSettled([completeWithdrawal(t.db, w!.id, { txHash: `0x${round}` }), rejectWithdrawal(t.db, w!.id, { reason: 'race' })]);
      expect([c.status, r.status].filter((s) => s === 'fulfilled')).toHaveLength(1);
      const loser = c.status === 'rejected' ? c : (r as PromiseRejectedResult);
      expect(loser.reason).toMatchObject({ status: 409, message: 'Withdrawal already processed' });
      const [after] = await rowsOf(u);
      if (c.status === 'fulfilled') {
        expect(after!.status).toBe('completed');
        expect((await bal(u)).income).toBe(usd(40));
        expect(await withdrawn(u)).toBe(usd(60));
      } else {
        expect(after!.status).toBe('rejected');
        expect((await bal(u)).income).toBe(usd(100));
        expect(await withdrawn(u)).toBe(0n);
      }
    }
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it.runIf(testDbKind === 'postgres')('20 parallel withdrawals of 10 from an income of 100: exactly 10 are recorded (PostgreSQL)', async () => {
    const u = await user();
    await fundIncome(t.db, u.id, 100);
    const payable0 = await sys(ledger.SYSTEM.withdrawalsPayable);
    const res = await Promise.all(Array.from({ length: 20 }, () => withdraw(u, { amount_usd: 10 })));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(res.filter((r) => r.statusCode === 400 && r.json().message === 'Insufficient balance')).toHaveLength(10);
    expect(await rowsOf(u)).toHaveLength(10);
    expect((await bal(u)).income).toBe(0n);
    expect(await sys(ledger.SYSTEM.withdrawalsPayable)).toBe(payable0 + usd(100));
  });
});
