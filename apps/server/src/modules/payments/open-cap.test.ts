import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPayments, payments } from '@app/core/contracts/payments';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { inject } from '../../test/api';
import { createUser } from '../../test/factories';
import { startFakeNowPayments, type FakeNowPayments } from '../../test/fake-nowpayments';
import { OPEN_STATUSES } from './status';

/**
 * "The small doors", finding 2: the cap of 10 open payments per user was counted before the
 * gateway call and the row written after it, with nothing in between holding other creates
 * back, so a burst of creates all counted the same few open payments and all got through (30 of
 * 30 before the fix). The count and the insert now run under a per-user lock.
 */
const CAP = 10;
const BURST = 30;
const MESSAGE = 'You have too many pending payments. Please complete or cancel one first.';

function burstCreates(get: () => TestApp) {
  it(`keeps at most ${CAP} open payments after ${BURST} parallel creates by one user (${testDbKind === 'postgres' ? 'concurrent on PostgreSQL' : 'serialised by PGlite'})`, async () => {
    const t = get();
    const user = await createUser(t.db, t.ctx.secret);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        inject(t.app, i % 2 ? demoPayments.create : payments.create, { token: user.token, body: { amount: 10 + i, currency: 'usdtbsc' } }),
      ),
    );
    const open = await t.db.selectFrom('payments').select('id').where('user_id', '=', user.id).where('status', 'in', OPEN_STATUSES).execute();
    expect(open.length).toBeLessThanOrEqual(CAP);
    expect(answers.filter((r) => r.statusCode === 200).length).toBe(open.length);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(429);
      expect(r.json()).toEqual({ success: false, code: 'RATE_LIMITED', message: MESSAGE });
    }
    // Once the cap is reached, another create is refused.
    if (open.length === CAP)
      expect((await inject(t.app, payments.create, { token: user.token, body: { amount: 10, currency: 'usdtbsc' } })).statusCode).toBe(429);
    // A second user is not held back by the first one's cap.
    const other = await createUser(t.db, t.ctx.secret);
    expect((await inject(t.app, payments.create, { token: other.token, body: { amount: 10, currency: 'usdtbsc' } })).statusCode).toBe(200);
  });
}

describe('the open-payments cap under a burst, sandbox gateway', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
  });
  afterAll(async () => t.close());
  burstCreates(() => t);
});

describe('the open-payments cap under a burst, NOWPayments gateway (local fake)', () => {
  let t: TestApp;
  let fake: FakeNowPayments;
  beforeAll(async () => {
    fake = await startFakeNowPayments({ apiKey: 'k', ipnSecret: 's', minAmountUsd: 1 });
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'nowpayments',
      NOWPAYMENTS_API_URL: fake.url,
      NOWPAYMENTS_API_KEY: 'k',
      NOWPAYMENTS_IPN_SECRET: 's',
      RATE_LIMIT_AUTH_PER_MIN: '1000',
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  burstCreates(() => t);
});
