import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { jsonDepthOver, MAX_JSON_DEPTH } from '../../plugins/input-guard';
import { GatewayError, type PaymentReport } from './gateways/gateway';
import { gatewayFor } from './gateways/registry';
import { verifyIpn } from './ipn-signature';
import type { PaymentRow } from './present';
import { applyReport } from './service';
import type { Tx } from '../../db/types';

/** NOWPayments wants a 2xx within 3 s: the re-read gets most of that, the poller covers a miss. */
const IPN_REREAD_TIMEOUT_MS = 2_000;

export type IpnOutcome = 'applied' | 'duplicate' | 'unknown_payment' | 'deferred';

/**
 * POST /api/payments/ipn (nowpayments.md §4). The signature is checked before anything else and
 * a bad or missing one writes nothing. An identical notification is processed once. The body is
 * only a hint: the payment is re-read with GET /v1/payment/{id} and that answer is applied.
 */
export async function handleIpn(ctx: AppContext, raw: Buffer | undefined, signature: unknown, log?: FastifyBaseLogger): Promise<IpnOutcome> {
  // This route keeps raw bytes, so the JSON parser's depth guard never saw them; the signature check
  // below parses and sorts recursively, and thousands of levels overflowed the stack (a 500).
  if (raw && jsonDepthOver(raw.toString('utf8'), MAX_JSON_DEPTH)) throw new AppError('BAD_REQUEST', 'Request body is nested too deeply');
  const np = ctx.config.payments.nowpayments;
  const gateway = gatewayFor(ctx, 'nowpayments');
  const verified = gateway ? verifyIpn(raw, signature, np.ipnSecret) : null;
  if (!verified) throw new AppError('UNAUTHENTICATED', 'Invalid signature');

  const body = verified.body;
  const paymentId = typeof body.payment_id === 'number' || typeof body.payment_id === 'string' ? String(body.payment_id) : '';
  if (!/^\d{1,20}$/.test(paymentId)) throw new AppError('BAD_REQUEST', 'Invalid IPN: payment_id is missing');
  const status = typeof body.payment_status === 'string' ? body.payment_status.toLowerCase() : '';

  const seen = await ctx.db
    .selectFrom('payment_ipn_events')
    .select('id')
    .where('provider', '=', 'nowpayments')
    .where('body_sha256', '=', verified.bodyHash)
    .executeTakeFirst();
  if (seen) return 'duplicate';

  let report: PaymentReport;
  try {
    report = await gateway!.getPayment(paymentId, { timeoutMs: IPN_REREAD_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // Not recorded, so a retry of this IPN is processed; the poller re-checks open payments meanwhile.
    log?.warn({ paymentId, code: err.code }, 'IPN re-read failed; left to the poller');
    return 'deferred';
  }

  return ctx.db.transaction().execute(async (tx) => {
    const event = await tx
      .insertInto('payment_ipn_events')
      .values({
        provider: 'nowpayments',
        provider_payment_id: paymentId,
        payment_status: status.slice(0, 40),
        body_sha256: verified.bodyHash,
        body: JSON.stringify(body),
      })
      .onConflict((oc) => oc.columns(['provider', 'body_sha256']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!event) return 'duplicate';
    const row = await findOrAdoptPayment(tx, paymentId, report);
    if (!row) {
      log?.warn({ paymentId }, 'IPN for a payment this server did not create');
      return 'unknown_payment';
    }
    await applyReport(tx, row.id, report);
    return 'applied';
  });
}

/**
 * The payment an IPN is about. A payment NOWPayments made on its own (a further deposit to an
 * address, a wrong asset: a child payment) is recorded against the user of its parent, or of the
 * order it names, and goes to review instead of being credited.
 */
async function findOrAdoptPayment(tx: Tx, providerPaymentId: string, report: PaymentReport): Promise<PaymentRow | undefined> {
  const own = await tx
    .selectFrom('payments')
    .selectAll()
    .where('provider', '=', 'nowpayments')
    .where('provider_payment_id', '=', providerPaymentId)
    .executeTakeFirst();
  if (own) return own;
  let parent: PaymentRow | undefined;
  if (report.parentPaymentId) {
    parent = await tx
      .selectFrom('payments')
      .selectAll()
      .where('provider', '=', 'nowpayments')
      .where('provider_payment_id', '=', report.parentPaymentId)
      .executeTakeFirst();
  }
  if (!parent && report.orderId) {
    parent = await tx
      .selectFrom('payments')
      .selectAll()
      .where('provider', '=', 'nowpayments')
      .where('order_id', '=', report.orderId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
  }
  if (!parent) return undefined;
  await tx
    .insertInto('payments')
    .values({
      user_id: parent.user_id,
      provider: 'nowpayments',
      provider_payment_id: providerPaymentId,
      order_id: report.orderId,
      kind: parent.kind,
      pay_currency: report.payCurrency ?? parent.pay_currency,
      price_amount: 0n,
      pay_amount: report.payAmount ?? 0n,
      pay_address: report.payAddress ?? parent.pay_address,
      window_end: parent.window_end,
      status: 'waiting',
      parent_payment_id: parent.provider_payment_id,
      needs_review: true,
      review_reason: `child payment of ${parent.provider_payment_id}`,
      extra: JSON.stringify({ history: [] }),
    })
    .onConflict((oc) => oc.columns(['provider', 'provider_payment_id']).doNothing())
    .execute();
  return tx.selectFrom('payments').selectAll().where('provider', '=', 'nowpayments').where('provider_payment_id', '=', providerPaymentId).executeTakeFirst();
}
