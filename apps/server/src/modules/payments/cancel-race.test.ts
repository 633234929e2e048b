import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { createUser } from '../../test/factories';
import { inject } from '../../test/api';
import { demoPayments, payments } from '@app/core/contracts/payments';
import * as ledger from '../ledger/service';
import { configurePayments } from './gateways/registry';
import { LATE_DEPOSIT_MESSAGE, PAYMENT_CANCELLED } from './sandbox-chain';

/**
 * A cancel and a pay of the same payment sent at the same moment (issue 30, item 7; issue 47),
 * many pairs at once, decided under the payment's row lock: either the cancel answers 'Payment
 * cancelled successfully', the pay that raced it is refused and the payment is never credited; or
 * the pay landed first, the cancel is refused saying the money was received and credited, and it
 * is. Before issue 47, 14 of 40 answered "cancelled" and were credited all the same. A pay that
 * reads the payment only after the cancel committed is money sent to a cancelled payment, which is
 * credited as a late deposit (it can be on any real chain): the test tells it by the pay's answer.
 */
const PAIRS = testDbKind === 'postgres' ? 40 : 10;

describe(`a cancel racing a pay (${testDbKind}, ${PAIRS} pairs in parallel)`, () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });

  it('a cancelled payment is never credited; a refused cancel is credited', async () => {
    // Transfers settle at once: a pay that lands is credited before anyone answers.
    configurePayments(t.ctx, { sandboxStepMs: 0 });
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) {
      const user = await createUser(t.db, t.ctx.secret);
      const created = await inject(t.app, demoPayments.create, { token: user.token, body: { amount: 10, currency: 'usdtbsc' } });
      expect(created.statusCode).toBe(200);
      pairs.push({ user, id: (created.data() as { paymentId: string }).paymentId });
    }
    const answers = await Promise.all(
      pairs.map(async ({ user, id }) => {
        const [cancel, pay] = await Promise.all([
          inject(t.app, demoPayments.cancel, { token: user.token, body: { payment_id: id } }),
          inject(t.app, payments.sandboxPay, { token: user.token, params: { payment_id: id }, body: { amount: 10 } }),
        ]);
        return {
          user,
          id,
          cancel: { status: cancel.statusCode, body: cancel.json() as { success: boolean; message: string } },
          pay: { status: pay.statusCode, body: pay.json() as unknown },
        };
      }),
    );
    let cancelled = 0;
    let credited = 0;
    let late = 0;
    for (const a of answers) {
      const row = await t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', a.id).executeTakeFirstOrThrow();
      const balance = (await ledger.getBalances(t.db, a.user.id)).deposit;
      const what = `payment ${a.id}: cancel ${a.cancel.status} '${a.cancel.body.message}', pay ${a.pay.status} ${JSON.stringify(a.pay.body)}, status ${row.status}, credited ${row.credited_amount}`;
      const payExtra = a.pay.status === 200 ? (JSON.parse((a.pay.body as { data: { extra: string } }).data.extra) as Record<string, unknown>) : {};
      if (a.cancel.body.success && a.pay.status === 200) {
        // The pay was read after the cancel had committed: money sent to a cancelled payment, a late
        // deposit, credited for what arrived (docs/decisions/2026-11-27-late-deposits.md). Its answer
        // says the payment was cancelled before the transfer.
        late++;
        expect((a.pay.body as { message: string }).message, what).toBe(LATE_DEPOSIT_MESSAGE);
        expect(typeof payExtra.cancelled_at, what).toBe('string');
        expect(Date.parse(payExtra.cancelled_at as string), what).toBeLessThanOrEqual(Date.parse(payExtra.last_transaction_time as string));
        expect(row.credited_amount, what).toBe(10_000_000n);
        expect(balance, what).toBe(10_000_000n);
      } else if (a.cancel.body.success) {
        cancelled++;
        expect(a.cancel.body.message, what).toBe('Payment cancelled successfully');
        // Never credited: the pay that raced the cancel was refused under the same lock.
        expect(a.pay, what).toEqual({ status: 400, body: { success: false, code: 'BAD_REQUEST', message: PAYMENT_CANCELLED } });
        expect(row.credited_amount, what).toBe(0n);
        expect(row.actually_paid, what).toBe(0n);
        expect(balance, what).toBe(0n);
        expect(row.status, what).toBe('expired');
      } else {
        credited++;
        expect(a.cancel, what).toEqual({
          status: 400,
          body: {
            success: false,
            code: 'BAD_REQUEST',
            message: 'Payment can no longer be cancelled: 10.00 USDT was received and credited to your deposit balance',
          },
        });
        expect(row.credited_amount, what).toBe(10_000_000n);
        expect(balance, what).toBe(10_000_000n);
        expect(a.pay.status, what).toBe(200);
      }
    }
    expect(cancelled + credited + late).toBe(PAIRS);
    expect((await ledger.verify(t.db)).ok).toBe(true);
    console.log(
      `[cancel race] ${testDbKind}: ${PAIRS} pairs: ${cancelled} cancelled (pay refused), ${credited} paid and credited (cancel said so), ${late} paid after the cancel (a late deposit)`,
    );
  });
});
