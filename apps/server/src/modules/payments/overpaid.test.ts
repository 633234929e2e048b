import { freePort } from '../../test/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { demoPayments, payments } from '@app/core/contracts/payments';
import * as ledger from '../ledger/service';
import { startFakeNowPayments, type FakeNowPayments } from '../../test/fake-nowpayments';
import { configurePayments } from './gateways/registry';

/**
 * Issue 47: a deposit is credited for what arrived, on every gateway, as the chain gateway already
 * did. Asked 50 and paid 70 credits 70 (it credited 50 before, while the screens showed 70); the
 * payment's credited_amount, the deposit balance and the mail say 70, and the history's Total
 * Deposits is the sum of its rows (210 over 70 + 100 + 40; it said 190 before).
 */
interface HistoryAnswer {
  data: { amount: number; status: string; extra: string }[];
  total_deposits: number;
}

const history = async (t: TestApp, u: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/user/get-history?type=transaction&page=1', headers: { authorization: `Bearer ${u.token}` } })).json()
    .data as HistoryAnswer;

const mails = (t: TestApp, userId: bigint) =>
  t.db.selectFrom('mail_outbox').select('payload').where('user_id', '=', userId).where('kind', '=', 'deposit_credited').orderBy('id').execute();

/** What every check says about a user who paid 70 of 50, 100 of 100 and 40 of 40. */
async function expectCreditedInFull(
  t: TestApp,
  user: TestUser,
  overpaidRow: { credited_amount: bigint; actually_paid: bigint; needs_review: boolean; status: string },
) {
  expect(overpaidRow).toMatchObject({ status: 'finished', actually_paid: 70_000_000n, credited_amount: 70_000_000n, needs_review: false });
  expect((await ledger.getBalances(t.db, user.id)).deposit).toBe(210_000_000n);
  const sent = (await mails(t, user.id)).map((m) => (m.payload as { amount?: string }).amount).sort();
  expect(sent).toEqual(['100.00', '40.00', '70.00']);
  const h = await history(t, user);
  const rows = h.data.map((r) => r.amount).sort((a, b) => a - b);
  expect(rows).toEqual([40, 70, 100]);
  expect(h.total_deposits).toBe(210);
  expect(h.total_deposits).toBe(rows.reduce((a, b) => a + b, 0));
  const overpaid = h.data.find((r) => JSON.parse(r.extra).amount_received === 70)!;
  expect(JSON.parse(overpaid.extra)).toMatchObject({ credited_amount: 70, amount_received: 70, expected_amount: 50 });
  expect((await ledger.verify(t.db)).ok).toBe(true);
}

describe(`an overpaid deposit is credited in full (${testDbKind})`, () => {
  describe('sandbox gateway', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
      configurePayments(t.ctx, { sandboxStepMs: 0 });
    });
    afterAll(async () => t.close());

    const deposit = async (u: TestUser, asked: number, paid: number) => {
      const created = await inject(t.app, demoPayments.create, { token: u.token, body: { amount: asked, currency: 'usdtbsc' } });
      const id = (created.data() as { paymentId: string }).paymentId;
      const res = await inject(t.app, payments.sandboxPay, { token: u.token, params: { payment_id: id }, body: { amount: paid } });
      expect(res.statusCode, res.body).toBe(200);
      return id;
    };

    it('asked 50, paid 70: 70 credited, mailed and in the history total', async () => {
      const user = await createUser(t.db, t.ctx.secret);
      const id = await deposit(user, 50, 70);
      await deposit(user, 100, 100);
      await deposit(user, 40, 40);
      const status = await inject(t.app, demoPayments.status, { token: user.token, body: { payment_id: id } });
      expect(status.data()).toMatchObject({ status: 'finished', amount: 50, credited_amount: 70 });
      const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
      await expectCreditedInFull(t, user, row);
    });
  });

  describe('NOWPayments gateway (the local fake)', () => {
    let fake: FakeNowPayments;
    let t: TestApp;
    beforeAll(async () => {
      fake = await startFakeNowPayments({ apiKey: 'k', ipnSecret: 's', minAmountUsd: 1 });
      const port = await freePort();
      t = await createTestApp({
        PAYMENTS_GATEWAY: 'nowpayments',
        NOWPAYMENTS_API_URL: fake.url,
        NOWPAYMENTS_API_KEY: 'k',
        NOWPAYMENTS_IPN_SECRET: 's',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        RATE_LIMIT_AUTH_PER_MIN: '1000',
      });
      await t.app.listen({ port, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
    });

    const deposit = async (u: TestUser, asked: number, paid: number) => {
      const res = await inject(t.app, payments.create, { token: u.token, body: { amount: asked, currency: 'usdtbsc' } });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.data().payment_id as string;
      // NOWPayments reports what arrived in actually_paid (and settles it as outcome_amount): credit that.
      fake.setPayment(id, { payment_status: 'finished', actually_paid: paid, outcome_amount: paid });
      expect(await fake.sendIpn(id)).toEqual([200]);
      return id;
    };

    it('asked 50, paid 70 (reported by IPN): 70 credited, mailed and in the history total', async () => {
      const user = await createUser(t.db, t.ctx.secret);
      const id = await deposit(user, 50, 70);
      await deposit(user, 100, 100);
      await deposit(user, 40, 40);
      const row = await t.db
        .selectFrom('payments')
        .selectAll()
        .where('provider', '=', 'nowpayments')
        .where('provider_payment_id', '=', id)
        .executeTakeFirstOrThrow();
      await expectCreditedInFull(t, user, row);
    });

    it('an amount reported against another currency still goes to review, credited nothing, shown as 0 credited', async () => {
      const user = await createUser(t.db, t.ctx.secret);
      const res = await inject(t.app, payments.create, { token: user.token, body: { amount: 50, currency: 'usdtbsc' } });
      const id = res.data().payment_id as string;
      fake.setPayment(id, { payment_status: 'finished', actually_paid: 70, pay_currency: 'usdttrc20' });
      await fake.sendIpn(id);
      const row = await t.db
        .selectFrom('payments')
        .selectAll()
        .where('provider', '=', 'nowpayments')
        .where('provider_payment_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ credited_amount: 0n, needs_review: true });
      expect((await ledger.getBalances(t.db, user.id)).deposit).toBe(0n);
      const h = await history(t, user);
      expect(h.data.map((r) => [r.status, r.amount])).toEqual([['finished', 0]]);
      expect(JSON.parse(h.data[0]!.extra)).toMatchObject({ amount_received: 70, credited_amount: 0 });
      expect(h.total_deposits).toBe(0);
    });
  });
});
