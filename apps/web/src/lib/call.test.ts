import { allContracts } from '@app/core/contracts';
import { staking, withdrawals } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from './api-client';
import { fieldErrorsOf } from './call';

describe('fieldErrorsOf: a failure’s field errors, by the contract body’s keys', () => {
  it('keeps the errors the server named on the body’s fields and drops any other name', () => {
    const err = new ApiError('Insufficient balance', 400, { amount_usd: 'Insufficient balance', password: 'not on this form' });
    expect(fieldErrorsOf(staking.create, err)).toEqual({ amount_usd: 'Insufficient balance' });
  });

  it('reads every field of a body with cross-field rules (withdrawal: amount, network, address, code)', () => {
    const errors = { wallet_address: 'Invalid wallet address for the selected network', totp_code: 'Invalid 2FA code', _: 'whole body' };
    expect(fieldErrorsOf(withdrawals.create, new ApiError('Invalid wallet address for the selected network', 400, errors))).toEqual({
      wallet_address: 'Invalid wallet address for the selected network',
      totp_code: 'Invalid 2FA code',
    });
  });

  it('gives none for a message naming a field, a network failure, or a contract with no body', () => {
    expect(fieldErrorsOf(staking.create, new ApiError('amount_usd is wrong', 400))).toEqual({});
    expect(fieldErrorsOf(staking.create, new TypeError('Failed to fetch'))).toEqual({});
    expect(fieldErrorsOf(user.wallet, new ApiError('x', 400, { amount_usd: 'x' }))).toEqual({});
  });

  it('every contract’s body is an object, so a form can always be told which field failed', () => {
    // fieldErrorsOf names fields from the body's shape; a body of another kind would give none.
    // The signer's internal routes are called by the signer process, never by a form.
    const bodies = allContracts.filter((c) => c.body !== undefined && c.auth !== 'signer');
    expect(bodies.length).toBeGreaterThan(30);
    expect(bodies.filter((c) => !(c.body instanceof z.ZodObject)).map((c) => `${c.method} ${c.path}`)).toEqual([]);
  });
});
