import { describe, expect, it } from 'vitest';
import { formNumber } from './fields';
import { ZCreateStakeRequest, ZCreateTransferRequest, ZCreateWithdrawalRequest, ZStakeAmount } from './money-ops';

const msg = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe('stake schema', () => {
  it.each([
    [undefined, 'Amount is required'],
    ['100', 'Amount must be a number'],
    [Number.NaN, 'Amount must be a number'],
    [-10, 'Minimum staking amount is $50'],
    [0, 'Minimum staking amount is $50'],
    [40, 'Minimum staking amount is $50'],
    [55, 'Amount must be a multiple of 10'],
    [50.0000001, 'Amount must be a multiple of 10'],
  ])('refuses %s with %s', (amount, expected) => {
    expect(msg(ZCreateStakeRequest.safeParse({ amount_usd: amount }))).toBe(expected);
  });
  it('accepts 50 and 1000', () => {
    expect(ZCreateStakeRequest.safeParse({ amount_usd: 50 }).success).toBe(true);
    expect(ZCreateStakeRequest.safeParse({ amount_usd: 1000 }).success).toBe(true);
  });
  it('reads form text as a number', () => {
    const form = formNumber(ZStakeAmount);
    expect(form.safeParse('60').success).toBe(true);
    expect(msg(form.safeParse(''))).toBe('Amount is required');
    expect(msg(form.safeParse('abc'))).toBe('Amount must be a number');
  });
});

describe('withdrawal schema', () => {
  const base = { network: 'BSC', wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7', token: 'USDT' };
  it.each([
    [5, 'Minimum withdrawal amount is $10'],
    [15, 'Amount must be a multiple of 10'],
    [undefined, 'Amount is required'],
  ])('refuses amount %s', (amount, expected) => {
    expect(msg(ZCreateWithdrawalRequest.safeParse({ ...base, amount_usd: amount }))).toBe(expected);
  });
  it('refuses an address of the wrong network or checksum', () => {
    expect(msg(ZCreateWithdrawalRequest.safeParse({ ...base, amount_usd: 20, network: 'TRON' }))).toBe('Invalid wallet address for the selected network');
    expect(msg(ZCreateWithdrawalRequest.safeParse({ ...base, amount_usd: 20, wallet_address: '' }))).toBe('Wallet address is required');
    expect(ZCreateWithdrawalRequest.safeParse({ ...base, amount_usd: 20 }).success).toBe(true);
  });
});

describe('transfer schema', () => {
  const base = { username: 'ABCDE1234', type: 'deposit' };
  it('enforces the spec messages', () => {
    expect(msg(ZCreateTransferRequest.safeParse({ ...base, amount_usd: 9.99 }))).toBe('Minimum transfer amount is 10 USDT');
    expect(msg(ZCreateTransferRequest.safeParse({ ...base, amount_usd: 0 }))).toBe('Please enter a valid amount');
    expect(msg(ZCreateTransferRequest.safeParse({ ...base, amount_usd: undefined }))).toBe('Amount is required');
    expect(msg(ZCreateTransferRequest.safeParse({ ...base, username: '', amount_usd: 10 }))).toBe('Username is required');
    expect(msg(ZCreateTransferRequest.safeParse({ ...base, username: 'ABC', amount_usd: 10 }))).toBe('Username must be exactly 9 characters');
    expect(ZCreateTransferRequest.safeParse({ ...base, username: 'abcde1234', amount_usd: 10.5 }).data?.username).toBe('ABCDE1234');
  });
});
