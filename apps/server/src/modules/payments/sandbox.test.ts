import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isValidEvmAddress, isValidTronAddress, toChecksumAddress } from '@app/core';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import type { Contract, InputOf } from '@app/core/contracts/define';
import { demoPayments, payments } from '@app/core/contracts/payments';
import { user as userApi } from '@app/core/contracts/user';
import * as ledger from '../ledger/service';
import { configurePayments } from './gateways/registry';
import { listDepositHistory } from './history';
import { expirePayments } from './jobs';
import { sandboxPayCommand, settleSandboxPayment } from './sandbox-chain';
import { applyReport } from './service';
import { countRows } from '../../test/count-rows';

describe('payments with the sandbox gateway', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
    alice = await createUser(t.db, t.ctx.secret);
    bob = await createUser(t.db, t.ctx.secret);
  });
  afterAll(async () => t.close());

  const balance = async (u: TestUser) => (await ledger.getBalances(t.db, u.id)).deposit;
  const countPayments = () => countRows(t.db, 'payments');
  const createDemo = async (u: TestUser, amount = 100, currency = 'usdtbsc') => {
    const res = await inject(t.app, demoPayments.create, { token: u.token, body: { amount, currency } });
    expect(res.statusCode).toBe(200);
    return res.data() as { paymentId: string; payAddress: string; payAmount: number; extra: string; timedout_at: string; status: string };
  };
  /** The sandbox chain takes `stepMs` per step (on the clock `now`, if given) for this test; the instant chain is back when it ends, passed or failed. */
  const sandboxStepForThisTest = (stepMs: number, now?: () => number) => {
    configurePayments(t.ctx, { sandboxStepMs: stepMs, ...(now ? { sandboxNow: now } : {}) });
    onTestFinished(() => void configurePayments(t.ctx, { sandboxStepMs: 0 }));
  };
  const pay = (u: TestUser, id: string, amount: unknown) =>
    inject(t.app, payments.sandboxPay, { token: u.token, params: { payment_id: id }, body: { amount } });

  it('lists the three chains with icons served by the app', async () => {
    const res = await inject(t.app, demoPayments.currencies, { token: alice.token });
    expect(res.json()).toEqual({
      success: true,
      data: [
        {
          name: 'usdtbsc',
          symbol: 'USDT',
          iconUrl: '/icons/usdt.svg',
          chain: { name: 'Binance Smart Chain', shortName: 'BSC', symbol: 'BNB', iconUrl: '/icons/bsc.svg' },
        },
        {
          name: 'usdtmatic',
          symbol: 'USDT',
          iconUrl: '/icons/usdt.svg',
          chain: { name: 'Polygon', shortName: 'Polygon', symbol: 'MATIC', iconUrl: '/icons/polygon.svg' },
        },
        {
          name: 'usdttrc20',
          symbol: 'USDT',
          iconUrl: '/icons/usdt.svg',
          chain: { name: 'Tron', shortName: 'TRON', symbol: 'TRX', iconUrl: '/icons/tron.svg' },
        },
      ],
    });
    const cfg = await inject(t.app, payments.config, { token: alice.token });
    expect(cfg.data()).toEqual({ gateway: 'sandbox', sandbox: true });
  });

  it('creates a demo payment with a fresh checksummed address, a 300 s window and the spec fields', async () => {
    const before = Date.now();
    const res = await inject(t.app, demoPayments.create, { token: alice.token, body: { amount: 50, currency: 'usdtbsc' } });
    expect(res.json()).toMatchObject({ success: true, message: 'Payment created successfully' });
    const p = res.data();
    expect(p).toMatchObject({
      status: 'waiting',
      amount: 50,
      payAmount: 50,
      payCurrency: 'usdtbsc',
      meta_data: {
        token: { iconUrl: '/icons/usdt.svg', symbol: 'USDT', name: 'Tether USD' },
        chain: { iconUrl: '/icons/bsc.svg', name: 'Binance Smart Chain' },
      },
    });
    expect(p.paymentId).toMatch(/^\d+$/);
    expect(p.payAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(toChecksumAddress(p.payAddress)).toBe(p.payAddress);
    expect(isValidEvmAddress(p.payAddress)).toBe(true);
    const window = Date.parse(p.timedout_at!) - before;
    expect(window).toBeGreaterThan(295_000);
    expect(window).toBeLessThan(305_000);
    expect(JSON.parse(p.extra!)).toEqual({
      amount_received: 0,
      expected_amount: 50,
      credited_amount: 0,
      pay_currency: 'USDT',
      status_description: 'Waiting for payment',
      confirmations_received: 0,
      last_transaction_hash: null,
      last_transaction_time: null,
      cancelled_at: null,
    });
    const second = await createDemo(alice, 50);
    expect(second.payAddress).not.toBe(p.payAddress);
  });

  it('gives TRON payments a base58check address and Polygon an EVM one', async () => {
    const tron = await createDemo(alice, 10, 'usdttrc20');
    expect(isValidTronAddress(tron.payAddress)).toBe(true);
    const matic = await createDemo(alice, 10, 'usdtmatic');
    expect(isValidEvmAddress(matic.payAddress)).toBe(true);
  });

  it('creates a first-flow payment with the spec answer', async () => {
    const res = await inject(t.app, payments.create, { token: alice.token, body: { amount: 12.5, currency: 'usdttrc20' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Payment created successfully',
      data: { payCurrency: 'usdttrc20', amount: 12.5, status: 'waiting' },
    });
    const d = res.data();
    expect(isValidTronAddress(d.payAddress)).toBe(true);
    expect(d.payment_id).toMatch(/^\d+$/);
    expect(Date.parse(d.timedout_at!)).toBeGreaterThan(Date.now());
    const pending = await inject(t.app, payments.pending, { token: alice.token });
    expect(pending.data()[0]).toMatchObject({ payment_id: d.payment_id, status: 'waiting', amount: 12.5 });
    expect(pending.data()[0]!.id).toMatch(/^\d+$/);
    // The card carries what the browser needs to reopen the panel after a reload (issue 12).
    expect(pending.data()[0]).toMatchObject({ pay_address: d.payAddress, pay_amount: 12.5, pay_currency: 'usdttrc20', timedout_at: d.timedout_at });
    expect(JSON.parse(pending.data()[0]!.extra)).toMatchObject({ amount_received: 0, expected_amount: 12.5 });
  });

  it('settles a short payment as partially_paid and credits exactly what arrived (route flow)', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 100);
    const res = await pay(user, p.paymentId, 60);
    expect(res.statusCode).toBe(200);
    expect(res.data()).toMatchObject({ payment_id: p.paymentId, status: 'partially_paid', amount: 100, pay_amount: 100 });
    const extra = JSON.parse(res.data().extra);
    expect(extra).toMatchObject({
      amount_received: 60,
      expected_amount: 100,
      status_description: 'Payment received with a partial amount',
      confirmations_received: 15,
    });
    expect(extra.last_transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balance(user)).toBe(60_000_000n);
    expect((await ledger.getTotals(t.db, user.id)).total_deposited).toBe(60_000_000n);
    expect((await ledger.verify(t.db)).ok).toBe(true);
    const status = await inject(t.app, demoPayments.status, { token: user.token, body: { payment_id: p.paymentId } });
    expect(status.json()).toMatchObject({ success: true, data: { status: 'partially_paid' } });
    expect(await balance(user)).toBe(60_000_000n);
  });

  it('credits the requested amount once for a payment paid in full, however often it is re-checked', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 100);
    expect((await pay(user, p.paymentId, 100)).json().data.status).toBe('finished');
    for (let i = 0; i < 3; i++) await inject(t.app, demoPayments.status, { token: user.token, body: { payment_id: p.paymentId } });
    await settleSandboxPayment(t.ctx, p.paymentId);
    expect(await balance(user)).toBe(100_000_000n);
    const entries = await t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', user.id).execute();
    expect(entries.length).toBe(1);
    expect(entries[0]!.idempotency_key).toMatch(/^deposit:\d+:100000000$/);
  });

  it('credits only the difference when a short payment is topped up to finished', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 100);
    await pay(user, p.paymentId, 60);
    const res = await pay(user, p.paymentId, 40);
    expect(res.data().status).toBe('finished');
    expect(await balance(user)).toBe(100_000_000n);
    expect((await ledger.getTotals(t.db, user.id)).total_deposited).toBe(100_000_000n);
    const keys = (await t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', user.id).orderBy('id').execute()).map(
      (e) => e.idempotency_key.split(':')[2],
    );
    expect(keys).toEqual(['60000000', '100000000']);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('credits an overpayment in full, for what arrived (issue 47; it was capped at the price before)', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 100);
    await pay(user, p.paymentId, 120.5);
    expect(await balance(user)).toBe(120_500_000n);
    const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', p.paymentId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'finished', credited_amount: 120_500_000n, actually_paid: 120_500_000n, needs_review: false });
  });

  it('walks confirming → confirmed → finished on its own within seconds', async () => {
    // The chain's clock stands still until the payment has answered, so its first status is
    // 'confirming' however slow the machine; then it moves past both steps and the payment's own
    // timers (real ones, 150 ms apart) must carry it to finished with nobody asking.
    let now = Date.now();
    sandboxStepForThisTest(150, () => now);
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 30);
    const res = await pay(user, p.paymentId, 30);
    expect(res.data().status).toBe('confirming');
    expect(await balance(user)).toBe(0n);
    now += 1_000;
    // Polling for the transient 'confirmed' misses it on a loaded machine; the chain's own record
    // of its steps (confirm, then settle, each processed once, in that order) proves the walk.
    const steps = () =>
      t.db
        .selectFrom('sandbox_chain_events as e')
        .innerJoin('sandbox_chain_payments as c', 'c.id', 'e.chain_payment_id')
        .innerJoin('payments as pay', 'pay.order_id', 'c.order_id')
        .select(['e.kind', 'e.processed_at', 'c.confirmed_at', 'c.settled_at', 'pay.status'])
        .where('pay.provider_payment_id', '=', p.paymentId)
        .orderBy('e.id')
        .execute();
    await expect
      .poll(async () => (await steps()).map((e) => [e.kind, e.status, e.processed_at !== null]), { timeout: 30_000, interval: 40 })
      .toEqual([
        ['confirm', 'finished', true],
        ['settle', 'finished', true],
      ]);
    const [confirm, settle] = await steps();
    expect(confirm!.processed_at!.getTime()).toBeLessThanOrEqual(settle!.processed_at!.getTime());
    expect(confirm!.confirmed_at!.getTime()).toBeLessThanOrEqual(confirm!.settled_at!.getTime());
    expect(await balance(user)).toBe(30_000_000n);
  });

  it('settles deterministically with settleSandboxPayment', async () => {
    sandboxStepForThisTest(60_000);
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 40);
    expect((await pay(user, p.paymentId, 40)).json().data.status).toBe('confirming');
    const row = await settleSandboxPayment(t.ctx, p.paymentId);
    expect(row.status).toBe('finished');
    expect(await balance(user)).toBe(40_000_000n);
  });

  it('pays through the CLI command', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 20);
    const line = await sandboxPayCommand(t.ctx, [p.paymentId, '20']);
    expect(line).toBe(`payment ${p.paymentId}: finished, received 20 of 20 USDT, credited 20 USD`);
    configurePayments(t.ctx, { sandboxStepMs: 50 });
    const q = await createDemo(user, 20);
    expect(await sandboxPayCommand(t.ctx, [q.paymentId, '5'])).toBe(`payment ${q.paymentId}: partially_paid, received 5 of 20 USDT, credited 5 USD`);
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    await expect(sandboxPayCommand(t.ctx, [p.paymentId])).rejects.toThrow('usage');
    await expect(sandboxPayCommand(t.ctx, [p.paymentId, 'abc'])).rejects.toThrow('not an amount');
  });

  it('ignores a status report that would go backwards', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 100);
    await pay(user, p.paymentId, 100);
    const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', p.paymentId).executeTakeFirstOrThrow();
    const res = await t.db.transaction().execute((tx) =>
      applyReport(tx, row.id, {
        providerPaymentId: p.paymentId,
        status: 'confirming',
        actuallyPaid: 0n,
        payAmount: 100_000_000n,
        priceAmount: null,
        payCurrency: null,
        txHash: null,
        confirmations: 1,
        parentPaymentId: null,
        orderId: row.order_id,
        payAddress: null,
      }),
    );
    expect(res.applied).toBe(false);
    expect(res.row).toMatchObject({ status: 'finished', actually_paid: 100_000_000n, credited_amount: 100_000_000n });
  });

  it('rounds a share down to the micro-unit and never credits above the price', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 10);
    const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', p.paymentId).executeTakeFirstOrThrow();
    const report = (status: 'partially_paid' | 'finished', paid: bigint) => ({
      providerPaymentId: p.paymentId,
      status,
      actuallyPaid: paid,
      payAmount: 3_000_000n,
      priceAmount: 10_000_000n,
      payCurrency: 'usdtbsc',
      txHash: '0xabc',
      confirmations: 3,
      parentPaymentId: null,
      orderId: row.order_id,
      payAddress: row.pay_address,
    });
    // 10 USD priced at 3 units of crypto; 1 unit arrived: 10 × 1 / 3 = 3.333333 (rounded down)
    await t.db.transaction().execute((tx) => applyReport(tx, row.id, report('partially_paid', 1_000_000n)));
    expect(await balance(user)).toBe(3_333_333n);
    await t.db.transaction().execute((tx) => applyReport(tx, row.id, report('finished', 3_000_000n)));
    expect(await balance(user)).toBe(10_000_000n);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('credits nothing for expired and failed payments', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 100);
    const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', p.paymentId).executeTakeFirstOrThrow();
    await t.db.transaction().execute((tx) =>
      applyReport(tx, row.id, {
        providerPaymentId: p.paymentId,
        status: 'failed',
        actuallyPaid: 100_000_000n,
        payAmount: 100_000_000n,
        priceAmount: null,
        payCurrency: null,
        txHash: null,
        confirmations: null,
        parentPaymentId: null,
        orderId: row.order_id,
        payAddress: null,
      }),
    );
    expect(await balance(user)).toBe(0n);

    const q = await createDemo(user, 100);
    await t.db
      .updateTable('payments')
      .set({ window_end: new Date(Date.now() - 1000) })
      .where('provider_payment_id', '=', q.paymentId)
      .execute();
    const { expired } = await expirePayments(t.ctx);
    expect(expired).toBeGreaterThanOrEqual(1);
    const after = await inject(t.app, demoPayments.status, { token: user.token, body: { payment_id: q.paymentId } });
    expect(after.data()).toMatchObject({ status: 'expired' });
    expect(JSON.parse(after.data().extra).status_description).toBe('Payment window expired');
    // Nothing arrived, so nothing is credited (a late transfer would be: late-payment.test.ts).
    expect(await balance(user)).toBe(0n);
    expect((await t.db.selectFrom('ledger_entries').select('id').where('user_id', '=', user.id).execute()).length).toBe(0);
  });

  it('does not expire a waiting payment inside its window, nor one that received money', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 10);
    await expirePayments(t.ctx);
    expect((await t.db.selectFrom('payments').select('status').where('provider_payment_id', '=', p.paymentId).executeTakeFirstOrThrow()).status).toBe(
      'waiting',
    );
  });

  it('cancels a waiting payment once, and not one that received money', async () => {
    sandboxStepForThisTest(60_000);
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 10);
    const res = await inject(t.app, demoPayments.cancel, { token: user.token, body: { payment_id: p.paymentId } });
    expect(res.json()).toEqual({ success: true, message: 'Payment cancelled successfully' });
    const pending = await inject(t.app, demoPayments.pending, { token: user.token });
    expect(pending.data()).toEqual([]);
    const again = await inject(t.app, demoPayments.cancel, { token: user.token, body: { payment_id: p.paymentId } });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'Payment can no longer be cancelled' });

    const q = await createDemo(user, 10);
    await pay(user, q.paymentId, 5);
    const paid = await inject(t.app, demoPayments.cancel, { token: user.token, body: { payment_id: q.paymentId } });
    expect(paid.statusCode).toBe(400);
    // It says what happened to the payment, not only that it cannot be cancelled.
    expect(paid.json().message).toBe('Payment can no longer be cancelled: 5.00 USDT was received and will be credited once confirmed');
  });

  it("answers 404 'Payment not found' for another user's payment, and changes nothing", async () => {
    const p = await createDemo(alice, 10);
    for (const c of [demoPayments.status, demoPayments.cancel, payments.status, payments.cancel]) {
      const res = await inject(t.app, c, { token: bob.token, body: { payment_id: p.paymentId } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Payment not found' });
    }
    const res = await pay(bob, p.paymentId, 10);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Payment not found');
    const bobsPending = await inject(t.app, demoPayments.pending, { token: bob.token });
    expect(bobsPending.data().find((x) => x.payment_id === p.paymentId)).toBeUndefined();
    const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', p.paymentId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'waiting', actually_paid: 0n });
    expect((await inject(t.app, demoPayments.status, { token: bob.token, body: { payment_id: '999999999999' } })).statusCode).toBe(404);
  });

  it.each([
    { c: payments.create, body: {}, message: 'Amount is required', field: 'amount' },
    { c: payments.create, body: { amount: 'ten', currency: 'usdtbsc' }, message: 'Amount must be a number', field: 'amount' },
    { c: payments.create, body: { amount: 0.5, currency: 'usdtbsc' }, message: 'Minimum amount is 1 USD', field: 'amount' },
    { c: payments.create, body: { amount: 10.001, currency: 'usdtbsc' }, message: 'Amount must have at most 2 decimals', field: 'amount' },
    { c: payments.create, body: { amount: 10 }, message: 'Currency is required', field: 'currency' },
    { c: payments.create, body: { amount: 10, currency: 'btc' }, message: 'Currency is required', field: 'currency' },
    { c: demoPayments.create, body: { amount: 5, currency: 'usdtbsc' }, message: 'Minimum amount is 10 USD', field: 'amount' },
    { c: demoPayments.create, body: { amount: 10, currency: 'usdt' }, message: 'Please select a chain', field: 'currency' },
    { c: demoPayments.create, body: { currency: 'usdtbsc' }, message: 'Amount is required', field: 'amount' },
    { c: demoPayments.status, body: {}, message: 'Payment ID is required', field: 'payment_id' },
    { c: demoPayments.status, body: { payment_id: '  ' }, message: 'Payment ID is required', field: 'payment_id' },
    { c: demoPayments.cancel, body: { payment_id: null }, message: 'Payment ID is required', field: 'payment_id' },
    { c: payments.status, body: { payment_id: 'x'.repeat(65) }, message: 'Payment ID is required', field: 'payment_id' },
  ])('refuses bad input on /api$c.path $body with the message and writes nothing', async ({ c, body, message, field }) => {
    const before = await countPayments();
    const res = await inject(t.app, c, { token: alice.token, body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message, errors: { [field]: message } });
    expect(await countPayments()).toBe(before);
  });

  it.each([
    [{}, 'Amount is required'],
    [{ amount: 0 }, 'Amount must be greater than 0'],
    [{ amount: -5 }, 'Amount must be greater than 0'],
    [{ amount: '5' }, 'Amount must be a number'],
    [{ amount: 1.0000001 }, 'Amount must have at most 6 decimals'],
    [{ amount: 2e9 }, 'Amount is too large'],
  ])('refuses a sandbox transfer of %j', async (body, message) => {
    const user = await createUser(t.db, t.ctx.secret);
    const p = await createDemo(user, 10);
    const res = await inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: p.paymentId }, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    const row = await t.db.selectFrom('sandbox_chain_payments').select('received').where('id', '=', BigInt(p.paymentId)).executeTakeFirstOrThrow();
    expect(row.received).toBe(0n);
  });

  it('needs a token on every payment route, and refuses IPNs while NOWPayments is not configured', async () => {
    const route = <C extends Contract>(c: C, params?: InputOf<C>['params']) => ({
      c,
      call: () => inject(t.app, c, { params, body: c.method === 'POST' ? {} : undefined }),
    });
    for (const { c, call } of [
      route(demoPayments.currencies),
      route(demoPayments.pending),
      route(demoPayments.create),
      route(demoPayments.status),
      route(demoPayments.cancel),
      route(payments.pending),
      route(payments.create),
      route(payments.status),
      route(payments.sandboxPay, { payment_id: '1' }),
    ]) {
      const res = await call();
      expect(res.statusCode, c.path).toBe(401);
    }
    const ipn = await t.app.inject({
      method: 'POST',
      url: '/api/payments/ipn',
      headers: { 'content-type': 'application/json', 'x-nowpayments-sig': 'a'.repeat(128) },
      payload: '{"payment_id":1}',
    });
    expect(ipn.statusCode).toBe(401);
    expect(ipn.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid signature' });
  });

  it('limits how many payments may wait at once', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    for (let i = 0; i < 10; i++) await createDemo(user, 10);
    const res = await inject(t.app, demoPayments.create, { token: user.token, body: { amount: 10, currency: 'usdtbsc' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe('You have too many pending payments. Please complete or cancel one first.');
  });

  it('lists deposits for the transaction history and the dashboard activity', async () => {
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const user = await createUser(t.db, t.ctx.secret);
    const a = await createDemo(user, 100);
    await pay(user, a.paymentId, 60);
    const b = await createDemo(user, 20, 'usdttrc20');
    const page = await listDepositHistory(t.db, user.id, 1, 10);
    expect(page.total).toBe(2);
    expect(page.data.map((r) => [r.status, r.amount, r.amount_usd])).toEqual([
      ['waiting', 20, 20],
      ['partially_paid', 60, 100],
    ]);
    const extra = JSON.parse(page.data[1]!.extra!);
    expect(extra).toMatchObject({ amount_received: 60, expected_amount: 100, status: 'partially_paid', wallet_address: a.payAddress });
    expect(extra.last_transaction_hash).toMatch(/^0x/);
    expect(Date.parse(extra.created_at)).toBeGreaterThan(0);
    expect(Date.parse(extra.expires_at)).toBeGreaterThan(Date.parse(extra.created_at));
    expect(JSON.parse(page.data[0]!.extra!).wallet_address).toBe(b.payAddress);
    expect((await listDepositHistory(t.db, user.id, 2, 1)).data.map((r) => r.status)).toEqual(['partially_paid']);
    const activity = (await inject(t.app, userApi.info, { token: user.token })).data().activity as { recordType: string; amount?: number; status: string }[];
    expect(activity.map((x) => [x.recordType, x.amount, x.status])).toEqual([
      ['transaction', 20, 'waiting'],
      ['transaction', 60, 'partially_paid'],
    ]);
    expect(await listDepositHistory(t.db, alice.id, 1, 10).then((r) => r.data.some((x) => x.extra?.includes(a.payAddress)))).toBe(false);
  });
});
