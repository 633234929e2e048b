import { freePort } from '../../test/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDbKind, type TestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { demoPayments, payments } from '@app/core/contracts/payments';
import * as ledger from '../ledger/service';
import { startFakeNowPayments, type FakeNowPayments } from '../../test/fake-nowpayments';
import { GatewayError } from './gateways/gateway';
import { createNowPaymentsGateway } from './gateways/nowpayments';
import { expirePayments, pollPayments } from './jobs';
import { countRows } from '../../test/count-rows';

describe('payments with the NOWPayments gateway (against the local fake)', () => {
  let fake: FakeNowPayments;
  let t: TestApp;
  let publicUrl: string;

  beforeAll(async () => {
    fake = await startFakeNowPayments({ apiKey: 'k', ipnSecret: 's', minAmountUsd: 1 });
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'nowpayments',
      NOWPAYMENTS_API_URL: fake.url,
      NOWPAYMENTS_API_KEY: 'k',
      NOWPAYMENTS_IPN_SECRET: ' s\n', // trimmed before use
      PUBLIC_URL: publicUrl,
      RATE_LIMIT_AUTH_PER_MIN: '1000',
    });
    // The fake delivers IPNs over real HTTP to PUBLIC_URL/api/payments/ipn.
    await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const balance = async (u: TestUser) => (await ledger.getBalances(t.db, u.id)).deposit;
  const row = (id: string) =>
    t.db.selectFrom('payments').selectAll().where('provider', '=', 'nowpayments').where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
  const count = (table: 'payment_ipn_events' | 'ledger_entries' | 'payments') => countRows(t.db, table);
  const newDeposit = async (amount = 100, currency = 'usdtbsc') => {
    const user = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, payments.create, { token: user.token, body: { amount, currency } });
    expect(res.statusCode, res.body).toBe(200);
    return { user, id: res.data().payment_id as string, data: res.data() };
  };
  /** A deposit of 100 that NOWPayments reports finished, paid in full, by one IPN. */
  const finishedDeposit = async () => {
    const deposit = await newDeposit(100);
    fake.setPayment(deposit.id, { payment_status: 'finished', actually_paid: 100 });
    await fake.sendIpn(deposit.id);
    return deposit;
  };

  it('sends NOWPayments the documented create request: x-api-key, price in usd, order_id and the IPN callback URL', async () => {
    const before = fake.requests.length;
    const { user, id, data } = await newDeposit(100, 'usdtbsc');
    const reqs = fake.requests.slice(before);
    const min = reqs.find((r) => r.path === '/v1/min-amount')!;
    expect(min.method).toBe('GET');
    expect(min.headers['x-api-key']).toBe('k');
    expect(min.query).toEqual({ currency_from: 'usdtbsc', currency_to: 'usdtbsc', fiat_equivalent: 'usd' });
    const create = reqs.find((r) => r.path === '/v1/payment' && r.method === 'POST')!;
    expect(create.headers['x-api-key']).toBe('k');
    expect(create.headers['content-type']).toBe('application/json');
    const stored = await row(id);
    expect(create.body).toEqual({
      price_amount: 100,
      price_currency: 'usd',
      pay_currency: 'usdtbsc',
      order_id: stored.order_id,
      order_description: 'Deposit of 100 USD',
      ipn_callback_url: `${publicUrl}/api/payments/ipn`,
    });
    expect(stored.order_id).toMatch(/^dep-[0-9a-f-]{36}$/);
    // payment_id came back as a string on create; stored as text, shown as the id
    const fp = fake.payments.get(id)!;
    expect(typeof fp.payment_id).toBe('number');
    expect(stored).toMatchObject({
      user_id: user.id,
      provider: 'nowpayments',
      kind: 'deposit',
      status: 'waiting',
      pay_address: fp.pay_address,
      price_amount: 100_000_000n,
      pay_amount: 100_000_000n,
    });
    expect(stored.window_end.toISOString()).toBe(fp.valid_until);
    expect(data).toMatchObject({ payment_id: id, payAddress: fp.pay_address, payCurrency: 'usdtbsc', amount: 100, timedout_at: fp.valid_until });

    const beforeGet = fake.requests.length;
    const status = await inject(t.app, payments.status, { token: user.token, body: { payment_id: id } });
    expect(status.json()).toMatchObject({ success: true, data: { payment_id: id, status: 'waiting', amount: 100, pay_amount: 100, pay_currency: 'usdtbsc' } });
    const get = fake.requests.slice(beforeGet).find((r) => r.method === 'GET')!;
    expect(get.path).toBe(`/v1/payment/${id}`);
    expect(get.headers['x-api-key']).toBe('k');
  });

  it('lists the chains the merchant account accepts', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, demoPayments.currencies, { token: user.token });
    expect(res.data().map((c) => c.name)).toEqual(['usdtbsc', 'usdtmatic', 'usdttrc20']);
    expect(fake.requestsTo('/v1/merchant/coins').at(-1)?.headers['x-api-key']).toBe('k');
  });

  it('credits the requested amount once for a finished payment, however often the IPN comes', async () => {
    const { user, id } = await newDeposit(100);
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 100 });
    expect(await fake.sendIpn(id)).toEqual([200]);
    expect(await balance(user)).toBe(100_000_000n);
    expect(await fake.sendIpn(id, { times: 3, sequential: true })).toEqual([200, 200, 200]);
    await pollPayments(t.ctx);
    expect(await balance(user)).toBe(100_000_000n);
    expect((await ledger.getTotals(t.db, user.id)).total_deposited).toBe(100_000_000n);
    expect(await row(id)).toMatchObject({ status: 'finished', credited_amount: 100_000_000n, actually_paid: 100_000_000n, needs_review: false });
    expect((await t.db.selectFrom('ledger_entries').select('id').where('user_id', '=', user.id).execute()).length).toBe(1);
  });

  it(`credits once when the same IPN is delivered 20 times at once (${testDbKind === 'postgres' ? 'concurrent on PostgreSQL' : 'serialised by PGlite'})`, async () => {
    const { user, id } = await newDeposit(250);
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 250 });
    const statuses = await fake.sendIpn(id, { times: 20 });
    expect(statuses).toEqual(Array(20).fill(200));
    expect(await balance(user)).toBe(250_000_000n);
    expect((await t.db.selectFrom('ledger_entries').select('id').where('user_id', '=', user.id).execute()).length).toBe(1);
    expect((await t.db.selectFrom('payment_ipn_events').select('id').where('provider_payment_id', '=', id).execute()).length).toBe(1);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('credits once when IPNs, the poller and status checks race over a payment', async () => {
    const { user, id } = await newDeposit(70);
    fake.setPayment(id, { payment_status: 'confirmed', actually_paid: 70 });
    const ipnA = fake.sendIpn(id, { times: 5 });
    fake.setPayment(id, { payment_status: 'finished' });
    await Promise.all([
      ipnA,
      fake.sendIpn(id, { times: 5 }),
      pollPayments(t.ctx),
      pollPayments(t.ctx),
      inject(t.app, payments.status, { token: user.token, body: { payment_id: id } }),
    ]);
    expect(await balance(user)).toBe(70_000_000n);
    expect((await row(id)).status).toBe('finished');
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('ends a short payment partially_paid crediting what arrived, then credits only the difference', async () => {
    const { user, id } = await newDeposit(100);
    fake.setPayment(id, { payment_status: 'partially_paid', actually_paid: 60 });
    await fake.sendIpn(id);
    expect(await balance(user)).toBe(60_000_000n);
    const status = await inject(t.app, demoPayments.status, { token: user.token, body: { payment_id: id } });
    expect(status.data().status).toBe('partially_paid');
    expect(JSON.parse(status.data().extra)).toMatchObject({ amount_received: 60, expected_amount: 100 });
    // The merchant turns it into finished once the rest arrived ("payment cover" or by hand).
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 100 });
    await fake.sendIpn(id);
    expect(await balance(user)).toBe(100_000_000n);
    const keys = (await t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', user.id).orderBy('id').execute()).map(
      (e) => e.idempotency_key,
    );
    const pid = (await row(id)).id;
    expect(keys).toEqual([`deposit:${pid}:60000000`, `deposit:${pid}:100000000`]);
    expect((await ledger.getTotals(t.db, user.id)).total_deposited).toBe(100_000_000n);
  });

  it('credits the rest of a partially_paid payment whose IPN was lost, by the poller after a restart, once; duplicate and late IPNs add nothing', async () => {
    const { user, id } = await newDeposit(100);
    fake.setPayment(id, { payment_status: 'partially_paid', actually_paid: 60 });
    await fake.sendIpn(id);
    expect(await balance(user)).toBe(60_000_000n);
    const pending = await inject(t.app, payments.pending, { token: user.token });
    expect(pending.data().map((p) => p.payment_id)).toContain(id);
    // The rest arrives and NOWPayments turns it finished; its IPN never reaches us, and we restart.
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 100 });
    const restarted = { ...t.ctx };
    await pollPayments(restarted);
    expect(await balance(user)).toBe(100_000_000n);
    // The lost IPN turns up after all, twice, then an old partially_paid one: nothing more.
    expect(await fake.sendIpn(id, { times: 2, sequential: true })).toEqual([200, 200]);
    fake.setPayment(id, { payment_status: 'partially_paid', actually_paid: 60 });
    await fake.sendIpn(id);
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 100 });
    await pollPayments(restarted);
    await inject(t.app, payments.status, { token: user.token, body: { payment_id: id } });
    expect(await balance(user)).toBe(100_000_000n);
    const pid = (await row(id)).id;
    const keys = (await t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', user.id).orderBy('id').execute()).map(
      (e) => e.idempotency_key,
    );
    expect(keys).toEqual([`deposit:${pid}:60000000`, `deposit:${pid}:100000000`]);
    expect(await row(id)).toMatchObject({ status: 'finished', credited_amount: 100_000_000n });
    expect((await ledger.getTotals(t.db, user.id)).total_deposited).toBe(100_000_000n);
  });

  it('credits nothing for expired and failed payments', async () => {
    const a = await newDeposit(100);
    fake.setPayment(a.id, { payment_status: 'expired' });
    await fake.sendIpn(a.id);
    expect((await row(a.id)).status).toBe('expired');
    const b = await newDeposit(100);
    fake.setPayment(b.id, { payment_status: 'failed', actually_paid: 0.5 });
    await fake.sendIpn(b.id);
    expect(await row(b.id)).toMatchObject({ status: 'failed', credited_amount: 0n });
    expect(await balance(a.user)).toBe(0n);
    expect(await balance(b.user)).toBe(0n);
  });

  it.each([
    ['a wrong secret', { secret: 'not-the-secret' }],
    ['a tampered amount', { tamper: { actually_paid: 1000 } }],
    ['no signature', { unsigned: true }],
  ])('refuses an IPN with %s (401) and writes nothing', async (_name, opts) => {
    const { user, id } = await newDeposit(100);
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 100 });
    const before = {
      events: await count('payment_ipn_events'),
      entries: await count('ledger_entries'),
      gets: fake.requestsTo(`/v1/payment/${id}`).length,
      row: await row(id),
    };
    const statuses = await fake.sendIpn(id, opts);
    expect(statuses).toEqual([401]);
    expect(fake.ipnLog.at(-1)?.status).toBe(401);
    expect(await count('payment_ipn_events')).toBe(before.events);
    expect(await count('ledger_entries')).toBe(before.entries);
    expect(fake.requestsTo(`/v1/payment/${id}`).length).toBe(before.gets); // not even re-read
    expect(await row(id)).toEqual(before.row);
    expect(await balance(user)).toBe(0n);
  });

  it("answers a bad signature with {success:false, message:'Invalid signature'}", async () => {
    const body = JSON.stringify({ payment_id: 1, payment_status: 'finished' });
    for (const sig of [undefined, 'x', 'a'.repeat(128), fake.sign(body, 'wrong')]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/ipn',
        headers: { 'content-type': 'application/json', ...(sig ? { 'x-nowpayments-sig': sig } : {}) },
        payload: body,
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid signature' });
    }
    const noBody = await t.app.inject({ method: 'POST', url: '/api/payments/ipn', headers: { 'x-nowpayments-sig': 'a'.repeat(128) } });
    expect(noBody.statusCode).toBe(401);
  });

  it('trusts the re-read, not the IPN body', async () => {
    const { user, id } = await newDeposit(100);
    // A correctly signed IPN claiming finished while NOWPayments itself still says waiting.
    const statuses = await fake.sendIpn(id, { overrides: { payment_status: 'finished', actually_paid: 100 } });
    expect(statuses).toEqual([200]);
    expect((await row(id)).status).toBe('waiting');
    expect(await balance(user)).toBe(0n);
  });

  it('ignores a status report that would go backwards', async () => {
    const { user, id } = await finishedDeposit();
    fake.setPayment(id, { payment_status: 'confirming', actually_paid: 10 });
    await fake.sendIpn(id);
    await pollPayments(t.ctx);
    expect(await row(id)).toMatchObject({ status: 'finished', actually_paid: 100_000_000n, credited_amount: 100_000_000n });
    expect(await balance(user)).toBe(100_000_000n);
  });

  it('handles out-of-order IPNs: the latest state wins and is credited once', async () => {
    const { user, id } = await newDeposit(50);
    const statuses = await fake.sendOutOfOrder(id, [
      { payment_status: 'confirming', actually_paid: 50 },
      { payment_status: 'confirmed' },
      { payment_status: 'sending' },
      { payment_status: 'finished' },
    ]);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect((await row(id)).status).toBe('finished');
    expect(await balance(user)).toBe(50_000_000n);
  });

  it('sends a child payment (a second deposit to the same address) to review without crediting it', async () => {
    const { user, id } = await finishedDeposit();
    const child = fake.createChild(id, { actually_paid: 30 });
    expect(await fake.sendIpn(child.payment_id)).toEqual([200]);
    const c = await row(String(child.payment_id));
    expect(c).toMatchObject({
      user_id: user.id,
      parent_payment_id: id,
      order_id: null,
      needs_review: true,
      credited_amount: 0n,
      status: 'partially_paid',
      actually_paid: 30_000_000n,
    });
    expect(c.review_reason).toContain(`child payment of ${id}`);
    expect(await balance(user)).toBe(100_000_000n);
    await pollPayments(t.ctx);
    expect(await balance(user)).toBe(100_000_000n);
    const history = await inject(t.app, payments.pending, { token: user.token });
    expect(history.data()).toEqual([]);
  });

  it('sends a payment reported with a null order_id or another currency to review without crediting it', async () => {
    const a = await newDeposit(100);
    fake.setPayment(a.id, { payment_status: 'finished', actually_paid: 100, order_id: null });
    await fake.sendIpn(a.id);
    expect(await row(a.id)).toMatchObject({ status: 'finished', needs_review: true, credited_amount: 0n, review_reason: 'no order_id' });
    const b = await newDeposit(100);
    fake.setPayment(b.id, { payment_status: 'finished', actually_paid: 100, pay_currency: 'usdttrc20' });
    await fake.sendIpn(b.id);
    expect(await row(b.id)).toMatchObject({
      status: 'finished',
      needs_review: true,
      credited_amount: 0n,
      review_reason: 'paid in usdttrc20 instead of usdtbsc',
    });
    expect(await balance(a.user)).toBe(0n);
    expect(await balance(b.user)).toBe(0n);
  });

  it('records nothing for an IPN about a payment this server never created', async () => {
    const gw = createNowPaymentsGateway({ apiUrl: fake.url, apiKey: 'k' });
    const foreign = await gw.createPayment({
      orderId: 'someone-else',
      priceAmountUsd: 10_000_000n,
      payCurrency: 'usdtbsc',
      ipnCallbackUrl: `${publicUrl}/api/payments/ipn`,
    });
    fake.setPayment(foreign.providerPaymentId, { payment_status: 'finished', actually_paid: 10 });
    const before = await count('payments');
    expect(await fake.sendIpn(foreign.providerPaymentId)).toEqual([200]);
    expect(await count('payments')).toBe(before);
  });

  it('the poller credits a payment whose IPN never came', async () => {
    const { user, id } = await newDeposit(40);
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 40 });
    const res = await pollPayments(t.ctx);
    expect(res.checked).toBeGreaterThanOrEqual(1);
    expect(await balance(user)).toBe(40_000_000n);
  });

  it('expires a waiting payment past its window, and credits a late deposit found by polling', async () => {
    const { user, id } = await newDeposit(30);
    await t.db
      .updateTable('payments')
      .set({ window_end: new Date(Date.now() - 1_000) })
      .where('provider_payment_id', '=', id)
      .execute();
    await expirePayments(t.ctx);
    expect((await row(id)).status).toBe('expired');
    // No IPN after expiry (nowpayments.md §3), but money still arrives.
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 30 });
    await pollPayments(t.ctx);
    expect(await row(id)).toMatchObject({ status: 'finished', credited_amount: 30_000_000n });
    expect(await balance(user)).toBe(30_000_000n);
  });

  it('cancels locally (NOWPayments has no cancel) and still credits money that arrives afterwards', async () => {
    const { user, id } = await newDeposit(20);
    const res = await inject(t.app, demoPayments.cancel, { token: user.token, body: { payment_id: id } });
    expect(res.json()).toEqual({ success: true, message: 'Payment cancelled successfully' });
    expect((await row(id)).status).toBe('expired');
    fake.setPayment(id, { payment_status: 'partially_paid', actually_paid: 5 });
    await pollPayments(t.ctx);
    expect(await balance(user)).toBe(5_000_000n);
  });

  it('plays the sandbox partially_paid case end to end over real signed IPNs', async () => {
    const { user, id } = await newDeposit(100);
    await fake.runCase(id, 'partially_paid', 5);
    expect((await row(id)).status).toBe('partially_paid');
    expect(await balance(user)).toBe(60_000_000n);
  });

  it('answers 200 and leaves the payment to the poller when the re-read fails, then processes the retry', async () => {
    const { user, id } = await newDeposit(15);
    fake.setPayment(id, { payment_status: 'finished', actually_paid: 15 });
    fake.failNext(500);
    expect(await fake.sendIpn(id)).toEqual([200]);
    expect(await balance(user)).toBe(0n);
    expect(await fake.sendIpn(id)).toEqual([200]);
    expect(await balance(user)).toBe(15_000_000n);
  });

  it('refuses to create when the provider fails, writing nothing', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const before = await count('payments');
    fake.failNext(500, 2); // min-amount, then the create
    const res = await inject(t.app, payments.create, { token: user.token, body: { amount: 10, currency: 'usdtbsc' } });
    // A provider outage is the provider's, not the request's: 503 with Retry-After, never 400 (issue 47).
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeTruthy();
    expect(res.json()).toEqual({ success: false, code: 'PROVIDER_UNAVAILABLE', message: 'Payment provider is unavailable. Please try again later.' });
    fake.failNext(429, 2); // nginx's HTML page
    const limited = await inject(t.app, payments.create, { token: user.token, body: { amount: 10, currency: 'usdtbsc' } });
    expect(limited.statusCode).toBe(503);
    expect(await count('payments')).toBe(before);
  });

  it('has no sandbox routes', async () => {
    const { user, id } = await newDeposit(10);
    const res = await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 10 } });
    expect(res.statusCode).toBe(404);
    const cfg = await inject(t.app, payments.config, { token: user.token });
    expect(cfg.data()).toEqual({ gateway: 'nowpayments', sandbox: false });
  });

  it("answers 404 'Payment not found' for another user's payment", async () => {
    const { id } = await newDeposit(10);
    const other = await createUser(t.db, t.ctx.secret);
    for (const c of [payments.status, demoPayments.status, demoPayments.cancel]) {
      const res = await inject(t.app, c, { token: other.token, body: { payment_id: id } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Payment not found' });
    }
  });
});

describe('NOWPayments client', () => {
  let fake: FakeNowPayments;
  beforeAll(async () => {
    fake = await startFakeNowPayments({ apiKey: 'k', ipnSecret: 's', email: 'm@example.test', password: 'Secret1', requireBearerOnGet: true, minAmountUsd: 5 });
  });
  afterAll(async () => fake.close());

  it('maps a wrong API key to INVALID_API_KEY (403)', async () => {
    const gw = createNowPaymentsGateway({ apiUrl: fake.url, apiKey: 'wrong' });
    const err = await gw
      .createPayment({ orderId: 'o', priceAmountUsd: 10_000_000n, payCurrency: 'usdtbsc', ipnCallbackUrl: 'http://x/api/payments/ipn' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect(err).toMatchObject({ code: 'INVALID_API_KEY', httpStatus: 403 });
  });

  it('maps the error envelope (AMOUNT_MINIMAL_ERROR) and reads min-amount', async () => {
    const gw = createNowPaymentsGateway({ apiUrl: fake.url, apiKey: 'k' });
    await expect(gw.createPayment({ orderId: 'o', priceAmountUsd: 2_000_000n, payCurrency: 'usdtbsc', ipnCallbackUrl: 'http://x' })).rejects.toMatchObject({
      code: 'AMOUNT_MINIMAL_ERROR',
      httpStatus: 400,
    });
    expect(await gw.minAmountUsd!('usdttrc20')).toBe(5_000_000n);
  });

  it('logs in for a Bearer token when GET /v1/payment/{id} demands one, and normalises its types', async () => {
    const gw = createNowPaymentsGateway({ apiUrl: fake.url, apiKey: 'k', email: 'm@example.test', password: 'Secret1' });
    const created = await gw.createPayment({
      orderId: 'o-1',
      priceAmountUsd: 12_340_000n,
      payCurrency: 'usdttrc20',
      ipnCallbackUrl: 'http://x/api/payments/ipn',
    });
    expect(typeof created.providerPaymentId).toBe('string');
    expect(created.payAmount).toBe(12_340_000n);
    fake.setPayment(created.providerPaymentId, { payment_status: 'partially_paid', actually_paid: 1.23456789 });
    const before = fake.requests.length;
    const first = await gw.getPayment(created.providerPaymentId);
    const second = await gw.getPayment(created.providerPaymentId); // pay_amount arrives as a string on every other GET
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      providerPaymentId: created.providerPaymentId,
      status: 'partially_paid',
      actuallyPaid: 1_234_567n,
      payAmount: 12_340_000n,
      priceAmount: 12_340_000n,
      orderId: 'o-1',
      payCurrency: 'usdttrc20',
      parentPaymentId: null,
    });
    const reqs = fake.requests.slice(before);
    expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /v1/payment/${created.providerPaymentId}`,
      'POST /v1/auth',
      `GET /v1/payment/${created.providerPaymentId}`,
      `GET /v1/payment/${created.providerPaymentId}`,
    ]);
    expect(reqs[1]!.body).toEqual({ email: 'm@example.test', password: 'Secret1' });
    expect(reqs[2]!.headers.authorization).toMatch(/^Bearer /);
    expect(reqs[2]!.headers['x-api-key']).toBe('k');
    expect(reqs[3]!.headers.authorization).toBe(reqs[2]!.headers.authorization); // token reused within its 5 minutes
  });

  it('reports a provider that does not answer as UNREACHABLE', async () => {
    const gw = createNowPaymentsGateway({ apiUrl: 'http://127.0.0.1:1', apiKey: 'k', timeoutMs: 500 });
    await expect(gw.getPayment('1')).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });
});
