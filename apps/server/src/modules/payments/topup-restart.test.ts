import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import type { AppContext } from '../../context';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { demoPayments, payments } from '@app/core/contracts/payments';
import * as ledger from '../ledger/service';
import { configurePayments } from './gateways/registry';
import { paymentJobs } from './jobs';

/**
 * A top-up after partially_paid must survive a process stop (issue 11). The sandbox chain runs on
 * a clock of the test's own, so "4 seconds later" is a number, not a wait.
 */
describe('a top-up after partially_paid survives a restart', () => {
  let t: TestApp;
  let clock = Date.now();
  const STEP = 2_000;
  /** the app currently "running"; replaced by restart() */
  let app: FastifyInstance;
  let ctx: AppContext;
  const extraApps: FastifyInstance[] = [];

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
    app = t.app;
    ctx = t.ctx;
    configurePayments(ctx, { sandboxStepMs: STEP, sandboxNow: () => clock });
  });
  afterAll(async () => {
    for (const a of extraApps) await a.close();
    await t.close();
  });

  /**
   * What a stop and a start do to the payments module: the old app closes (its timers die with
   * it) and a new app is built on the same database with a fresh context, so nothing in memory
   * carries over.
   */
  const restart = async () => {
    await app.close();
    ctx = { ...t.ctx };
    app = await buildApp({ ctx, logger: false });
    await app.ready();
    extraApps.push(app);
    configurePayments(ctx, { sandboxStepMs: STEP, sandboxNow: () => clock });
  };
  /** Every payment job once, as the scheduler's first tick after a start does. */
  const runPaymentJobs = async () => {
    for (const job of paymentJobs) await job.run(ctx);
  };
  const balance = async (u: TestUser) => (await ledger.getBalances(t.db, u.id)).deposit;
  const depositKeys = async (u: TestUser) =>
    (await t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', u.id).where('kind', '=', 'deposit').orderBy('id').execute()).map(
      (e) => e.idempotency_key,
    );
  const payment = (id: string) => t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
  /** Checks the payment's status and credited amount, and that the user (who has no other deposit) holds exactly that; returns its row. */
  const expectCredited = async (u: TestUser, id: string, status: string, credited: bigint) => {
    const row = await payment(id);
    expect(row.status).toBe(status);
    expect(row.credited_amount).toBe(credited);
    expect(await balance(u)).toBe(credited);
    return row;
  };
  /** A new user's demo payment of 100 in `currency`, `paid` of it sent and settled by the payment jobs: partially_paid. */
  const partlyPaid = async (currency: string, paid: number) => {
    const user = await createUser(t.db, t.ctx.secret);
    const id = (await inject(app, demoPayments.create, { token: user.token, body: { amount: 100, currency } })).data().paymentId as string;
    await inject(app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: paid } });
    clock += 2 * STEP + 1;
    await runPaymentJobs();
    return { user, id };
  };

  it('credits the top-up exactly once after a restart, by the job alone', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const created = await inject(app, demoPayments.create, { token: user.token, body: { amount: 100, currency: 'usdtbsc' } });
    const id = created.data().paymentId as string;
    expect((await inject(app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 60 } })).data().status).toBe('confirming');
    clock += 2 * STEP + 1;
    await runPaymentJobs();
    expect((await payment(id)).status).toBe('partially_paid');
    expect(await balance(user)).toBe(60_000_000n);

    // The top-up: the chain sees it confirming; the payment stays partially_paid (never backwards).
    const topUp = await inject(app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 40 } });
    expect(topUp.data().status).toBe('partially_paid');
    const pending = await inject(app, demoPayments.pending, { token: user.token });
    expect(pending.data().map((p) => p.payment_id)).toContain(id);

    // The process stops before the chain settles the top-up; it settles while nobody runs.
    await restart();
    clock += 2 * STEP + 1;
    await runPaymentJobs();
    const row = await expectCredited(user, id, 'finished', 100_000_000n);

    // Every other path afterwards (jobs again, the status call, another restart) adds nothing.
    await runPaymentJobs();
    expect((await inject(app, demoPayments.status, { token: user.token, body: { payment_id: id } })).data().status).toBe('finished');
    await restart();
    await runPaymentJobs();
    expect(await balance(user)).toBe(100_000_000n);
    expect(await depositKeys(user)).toEqual([`deposit:${row.id}:60000000`, `deposit:${row.id}:100000000`]);
    expect((await ledger.getTotals(t.db, user.id)).total_deposited).toBe(100_000_000n);
    const pendingAfter = await inject(app, demoPayments.pending, { token: user.token });
    expect(pendingAfter.data().map((p) => p.payment_id)).not.toContain(id);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it('credits a top-up that still leaves the payment short as the new share, once', async () => {
    const { user, id } = await partlyPaid('usdttrc20', 30);
    await inject(app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 20 } });
    await restart();
    clock += 2 * STEP + 1;
    await runPaymentJobs();
    await runPaymentJobs();
    const row = await expectCredited(user, id, 'partially_paid', 50_000_000n);
    expect(await depositKeys(user)).toEqual([`deposit:${row.id}:30000000`, `deposit:${row.id}:50000000`]);
  });

  it('keeps a partially_paid payment pending while its window is open, and credits a top-up after it (issue 32, item 8)', async () => {
    const { user, id } = await partlyPaid('usdtbsc', 10);
    const listed = async () => ((await inject(app, demoPayments.pending, { token: user.token })).data() as { payment_id: string }[]).map((p) => p.payment_id);
    expect(await listed()).toContain(id);
    // Close the window (the chain clock and the stored window together).
    await t.db
      .updateTable('payments')
      .set({ window_end: new Date(Date.now() - 1000) })
      .where('provider_payment_id', '=', id)
      .execute();
    clock = Math.max(clock, (await payment(id)).window_end.getTime() + 1);
    expect(await listed()).not.toContain(id);
    const late = await inject(app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 90 } });
    expect(late.statusCode).toBe(200);
    clock += 2 * STEP + 1;
    await runPaymentJobs();
    expect(await balance(user)).toBe(100_000_000n);
    expect((await payment(id)).status).toBe('finished');
  });
});
