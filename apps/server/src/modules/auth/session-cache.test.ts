import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser, fundDeposit } from '../../test/factories';
import { inject } from '../../test/api';
import { transfers } from '@app/core/contracts/money';

/**
 * The fund-transfer route authenticates from a 2 s per-process session cache (its statement checks
 * the session again). A revocation or a block made elsewhere (another process; here plain SQL,
 * which this process's cache cannot see either) must still win over every other answer: an
 * invalid body from a revoked token gets 401, from a blocked user 403, never the payload's 400.
 */
describe('a cached session that was revoked elsewhere (issue 30, item 5)', () => {
  const t = useTestApp();
  const transfer = (token: string, body: Record<string, unknown>) => inject(t.app, transfers.create, { token, body });

  it('answers 401 to an invalid body once the session was deleted behind the cache, and 403 once the user was blocked', async () => {
    const [a, b, c] = [await createUser(t.db, t.ctx.secret), await createUser(t.db, t.ctx.secret), await createUser(t.db, t.ctx.secret)];
    await fundDeposit(t.db, a.id, 100);
    const tooSmall = { username: c.username, amount_usd: 1, type: 'deposit' };
    // Fills the cache: the session is live and the body breaks a payload rule.
    expect((await transfer(a.token, tooSmall)).json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'Minimum transfer amount is 10 USDT',
      errors: { amount_usd: 'Minimum transfer amount is 10 USDT' },
    });
    expect((await transfer(b.token, tooSmall)).statusCode).toBe(400);

    // Revoked and blocked where this process's cache does not hear of it.
    await sql`delete from sessions where user_id = ${a.id}`.execute(t.db);
    await sql`update users set status = 'blocked' where id = ${b.id}`.execute(t.db);
    for (const body of [tooSmall, { username: c.username }, { amount_usd: 'ten' }]) {
      const revoked = await transfer(a.token, body);
      expect(revoked.statusCode).toBe(401);
      expect(revoked.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid or expired token' });
    }
    // Re-filled? No: the failed recheck dropped the entry, so a second try is refused too.
    const blocked = await transfer(b.token, tooSmall);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ success: false, code: 'FORBIDDEN', message: 'Your account has been blocked' });
    // A valid body was always refused by the statement itself; it still is.
    expect((await transfer(a.token, { username: c.username, amount_usd: 10, type: 'deposit' })).statusCode).toBe(401);
  });

  it('still answers the payload rules to a live session that came from the cache', async () => {
    const [a, c] = [await createUser(t.db, t.ctx.secret), await createUser(t.db, t.ctx.secret)];
    for (let i = 0; i < 2; i++) {
      const res = await transfer(a.token, { username: c.username, amount_usd: 1, type: 'deposit' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Minimum transfer amount is 10 USDT');
    }
  });
});
