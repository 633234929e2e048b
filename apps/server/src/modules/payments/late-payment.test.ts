import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { demoPayments, payments } from '@app/core/contracts/payments';
import * as ledger from '../ledger/service';
import { configurePayments } from './gateways/registry';
import { expirePayments, paymentJobs } from './jobs';

/**
 * Issue 32, item 8: money that reaches a payment's address after its 300 s window (exchange
 * withdrawals often take longer) is credited for what arrived, like a partial payment; the window
 * stays the countdown. The sandbox chain runs on the test's clock, so "later" is a number.
 */
describe('a transfer after the payment window is credited for what arrived', () => {
  let t: TestApp;
  let clock = Date.now();
  const STEP = 2_000;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
    configurePayments(t.ctx, { sandboxStepMs: STEP, sandboxNow: () => clock });
  });
  afterAll(async () => t.close());

  const create = async (u: TestUser, amount: number) =>
    (await inject(t.app, demoPayments.create, { token: u.token, body: { amount, currency: 'usdtbsc' } })).data().paymentId as string;
  const balance = async (u: TestUser) => (await ledger.getBalances(t.db, u.id)).deposit;
  const payment = (id: string) => t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
  /** Ends the payment's window, on the chain's clock and in the stored row alike. */
  const closeWindow = async (id: string) => {
    await t.db
      .updateTable('payments')
      .set({ window_end: new Date(Math.min(clock, Date.now()) - 1000) })
      .where('provider_payment_id', '=', id)
      .execute();
    await t.db
      .updateTable('sandbox_chain_payments')
      .set({ valid_until: new Date(clock - 1000) })
      .where('id', '=', BigInt(id))
      .execute();
  };
  /** The chain settles the transfer (two steps later) and every payment job runs once. */
  const settle = async () => {
    clock += 2 * STEP + 1;
    for (const job of paymentJobs) await job.run(t.ctx);
  };

  it('a waiting payment past its window, not yet expired by the job: the late 30 of 50 is credited as partially paid', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const id = await create(user, 50);
    await closeWindow(id);
    const late = await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 30 } });
    expect(late.json()).toMatchObject({ success: true, message: 'Payment sent' });
    await settle();
    const row = await payment(id);
    expect(row.status).toBe('partially_paid');
    expect(row.credited_amount).toBe(30_000_000n);
    expect(await balance(user)).toBe(30_000_000n);
  });

  it('an expired payment (the job ran): the late full amount is credited in full, once', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const id = await create(user, 40);
    await closeWindow(id);
    await expirePayments(t.ctx);
    expect((await payment(id)).status).toBe('expired');
    expect((await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 40 } })).statusCode).toBe(200);
    await settle();
    await settle();
    const row = await payment(id);
    expect(row.status).toBe('finished');
    expect(row.credited_amount).toBe(40_000_000n);
    expect(await balance(user)).toBe(40_000_000n);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('a cancelled payment: money sent anyway is credited for what arrived', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const id = await create(user, 20);
    expect((await inject(t.app, demoPayments.cancel, { token: user.token, body: { payment_id: id } })).json()).toMatchObject({ success: true });
    expect((await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 5 } })).statusCode).toBe(200);
    await settle();
    expect((await payment(id)).status).toBe('partially_paid');
    expect(await balance(user)).toBe(5_000_000n);
  });

  it('a partially paid payment past its window takes a late top-up; a finished one takes nothing', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const id = await create(user, 100);
    await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 10 } });
    await settle();
    await closeWindow(id);
    expect((await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 90 } })).statusCode).toBe(200);
    await settle();
    const row = await payment(id);
    expect(row.status).toBe('finished');
    expect(row.credited_amount).toBe(100_000_000n);
    expect(await balance(user)).toBe(100_000_000n);
    const more = await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 5 } });
    expect(more.statusCode).toBe(400);
    expect(more.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'Payment can no longer be paid' });
    expect(await balance(user)).toBe(100_000_000n);
  });
});
