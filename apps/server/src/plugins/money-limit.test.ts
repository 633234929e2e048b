import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';
import { inject, withdrawer } from '../test/api';
import { staking, transfers } from '@app/core/contracts/money';
import { createUser, fundDeposit, fundIncome } from '../test/factories';
import { createSession } from '../modules/auth/sessions';

/**
 * Issue 29, finding 3 (last sentence): POST /api/withdraw/create had no rate limit. The money routes
 * are now limited per account (RATE_LIMIT_MONEY_PER_MIN), whatever the session or IP. Failed
 * before the fix (no 429).
 */
describe('per-account limit on money routes', () => {
  const t = useTestApp({ RATE_LIMIT_MONEY_PER_MIN: '3' });

  it('answers 429 past the limit per account, across sessions, and not for another account', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const other = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, 100);
    await fundDeposit(t.db, u.id, 1000);
    const second = await createSession(t.db, t.ctx.secret, u.id);
    const withdraw = withdrawer(t);
    const codes = [];
    for (const token of [u.token, second, u.token, second]) codes.push((await withdraw({ ...u, token }, { amount_usd: 10 })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const transfer = (token: string) => inject(t.app, transfers.create, { token, body: { username: other.username, amount_usd: 10, type: 'deposit' } });
    const stake = (token: string) => inject(t.app, staking.create, { token, body: { amount_usd: 50 } });
    const more = [];
    for (let i = 0; i < 4; i++) more.push((await transfer(u.token)).statusCode);
    expect(more).toEqual([200, 200, 200, 429]);
    const stakes = [];
    for (let i = 0; i < 4; i++) stakes.push((await stake(second)).statusCode);
    expect(stakes).toEqual([200, 200, 200, 429]);
    const limited = await withdraw(u, { amount_usd: 10 });
    expect(limited.json()).toEqual({ success: false, message: 'Too many requests, please try again later.' });
    await fundIncome(t.db, other.id, 100);
    expect((await withdraw(other, { amount_usd: 10 })).statusCode).toBe(200);
  });
});
