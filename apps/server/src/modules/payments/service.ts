import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { microToDecimal, mulDivDown, PAYMENT_WINDOW_SECONDS, usd, type TPayCurrency } from '@app/core';
import type { AppContext } from '../../context';
import type { Executor, Tx } from '../../db/types';
import { AppError, fieldError } from '../../lib/errors';
import { paginate } from '../../lib/paginate';
import { GatewayError, type PaymentReport } from './gateways/gateway';
import { gatewayFor, paymentsRuntime } from './gateways/registry';
import type { PaymentRow } from './present';
import { canMove, CREDIT_STATUSES, OPEN_STATUSES, type PaymentStatus } from './status';
import type { PaymentKind } from './table';
import { usdtText } from '../mail/service';
import { postDepositCredit } from './deposit-credit';
import { movePayment } from './status-writer';
import './table';

export type { PaymentRow } from './present';

/** A user may hold this many open payments at once (each one is a gateway call and an address). */
const MAX_OPEN_PAYMENTS = 10;
/** Gateway re-reads for one payment are at most this often (NOWPayments rate-limits by IP). */
const REFRESH_MIN_INTERVAL_MS = 3_000;

export const PAYMENT_NOT_FOUND = 'Payment not found';

/** The IPN callback NOWPayments calls (server design, section 6). */
export function ipnCallbackUrl(ctx: AppContext): string {
  return `${ctx.config.publicUrl}/api/payments/ipn`;
}

/**
 * Creates a payment at the active gateway and records it. The gateway call happens outside any
 * transaction (a network wait must not hold a database connection); the row is written after.
 */
export async function createPayment(
  ctx: AppContext,
  userId: bigint,
  input: { amount: number; currency: TPayCurrency },
  kind: PaymentKind,
): Promise<PaymentRow> {
  const gateway = paymentsRuntime(ctx).active;
  const price = usd(input.amount);
  // A cheap first look, so a user at the cap costs no gateway call; the count that decides is taken again under the lock below.
  await refuseOverOpenCap(ctx.db, userId);

  if (gateway.minAmountUsd) {
    const min = await gateway.minAmountUsd(input.currency).catch(() => null);
    if (min !== null && price < min) throw fieldError('amount', `Minimum amount is ${microToDecimal(min)} USD`);
  }

  const orderId = `${kind === 'demo' ? 'demo' : 'dep'}-${randomUUID()}`;
  let created;
  try {
    created = await gateway.createPayment({ orderId, priceAmountUsd: price, payCurrency: input.currency, ipnCallbackUrl: ipnCallbackUrl(ctx), userId });
  } catch (err) {
    if (err instanceof GatewayError) {
      if (err.code === 'AMOUNT_MINIMAL_ERROR') throw fieldError('amount', 'Amount is below the minimum for this currency');
      if (err.code === 'CURRENCY_UNAVAILABLE') throw fieldError('currency', 'This currency is not available right now');
      // Anything else is the provider's fault, not the request's: 503 with Retry-After (issue 47).
      throw new AppError('PROVIDER_UNAVAILABLE');
    }
    throw err;
  }
  const windowEnd = created.validUntil ?? new Date(Date.now() + PAYMENT_WINDOW_SECONDS * 1000);
  // The count and the insert run under a per-user lock, so parallel creates cannot all count the
  // same open payments and all get through ("the small doors", finding 2). A create refused here
  // leaves its gateway payment unused: nobody is shown its address, and it expires there.
  return ctx.db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`payments:open:${userId}`}, 0))`.execute(tx);
    await refuseOverOpenCap(tx, userId);
    return tx
      .insertInto('payments')
      .values({
        user_id: userId,
        provider: gateway.provider,
        provider_payment_id: created.providerPaymentId,
        order_id: orderId,
        kind,
        pay_currency: input.currency,
        price_amount: price,
        pay_amount: created.payAmount,
        pay_address: created.payAddress,
        window_end: windowEnd,
        status: created.status,
        extra: JSON.stringify({ ...created.extra, history: [{ status: created.status, at: new Date().toISOString() }] }),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** 429 when the user already holds MAX_OPEN_PAYMENTS open payments. */
async function refuseOverOpenCap(db: Executor, userId: bigint): Promise<void> {
  const open = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN_STATUSES)
    .executeTakeFirstOrThrow();
  if (Number(open.n) >= MAX_OPEN_PAYMENTS) throw new AppError('RATE_LIMITED', 'You have too many pending payments. Please complete or cancel one first.');
}

/** A payment of this user by the id the screens show (the gateway's payment id); 404 for anyone else's. */
export async function findOwnPayment(db: Executor, userId: bigint, paymentId: string): Promise<PaymentRow> {
  const row = await db
    .selectFrom('payments')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider_payment_id', '=', paymentId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', PAYMENT_NOT_FOUND);
  return row;
}

/** Whether a gateway re-read can still change the payment (the only final states left open are partially_paid and expired). */
function mayStillChange(status: PaymentStatus): boolean {
  return status !== 'finished' && status !== 'failed' && status !== 'refunded';
}

/**
 * Asks the payment's gateway for its current state and applies it. A gateway that does not
 * answer leaves the payment as it is (the poller tries again).
 */
export async function refreshPayment(
  ctx: AppContext,
  row: PaymentRow,
  opts: { force?: boolean; timeoutMs?: number; afterTransfer?: boolean } = {},
): Promise<PaymentRow> {
  // A transfer the gateway reports (a sandbox chain event) is read even at a final status: a
  // second transfer that landed while the first finished the payment is credited too (issue 47:
  // an overpayment in full; the property test found it lost at 600 operations on PostgreSQL).
  if (!mayStillChange(row.status) && !opts.afterTransfer) return row;
  // A chain payment has no one to ask: the watcher (modules/custody) writes its state as the chain moves.
  if (row.provider === 'chain') return row;
  const gateway = gatewayFor(ctx, row.provider);
  if (!gateway) return row;
  if (!opts.force && row.provider !== 'sandbox' && row.last_checked_at && Date.now() - row.last_checked_at.getTime() < REFRESH_MIN_INTERVAL_MS) return row;
  let report: PaymentReport;
  try {
    report = await gateway.getPayment(row.provider_payment_id, opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {});
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    // Recorded as checked so one unreachable payment does not hold the head of the poller's queue.
    return (await ctx.db.updateTable('payments').set({ last_checked_at: new Date() }).where('id', '=', row.id).returningAll().executeTakeFirst()) ?? row;
  }
  return ctx.db.transaction().execute(async (tx) => (await applyReport(tx, row.id, report)).row);
}

export interface ApplyResult {
  row: PaymentRow;
  /** micro-units credited by this report (0 when nothing new) */
  credited: bigint;
  /** false when the report was ignored (it would have moved the status backwards) */
  applied: boolean;
}

/**
 * Applies a gateway report to a payment, under the payment's row lock, in the caller's
 * transaction (docs/decisions/2026-11-22-deposit-crediting.md):
 * - a report that would move the status backwards is ignored;
 * - received amounts never shrink;
 * - at a crediting status, `price × actually_paid / pay_amount` (rounded down; an overpayment
 *   in full, issue 47) is what the payment is worth; only the part not yet in `credited_amount` is posted to
 *   the ledger, keyed by the new cumulative total, so a replay posts nothing;
 * - child payments, a missing or foreign order_id, another currency or another price go to review
 *   and are not credited.
 */
export async function applyReport(tx: Tx, paymentId: bigint, report: PaymentReport): Promise<ApplyResult> {
  const row = await tx.selectFrom('payments').selectAll().where('id', '=', paymentId).forUpdate().executeTakeFirstOrThrow();
  const now = new Date();
  if (!canMove(row.status, report.status)) {
    const touched = await tx.updateTable('payments').set({ last_checked_at: now }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
    return { row: touched, credited: 0n, applied: false };
  }

  const blocking: string[] = [];
  if (row.parent_payment_id || report.parentPaymentId) blocking.push(`child payment of ${row.parent_payment_id ?? report.parentPaymentId}`);
  if (report.orderId !== row.order_id) blocking.push(report.orderId === null ? 'no order_id' : `order_id ${report.orderId} does not match`);
  if (report.payCurrency && report.payCurrency !== row.pay_currency) blocking.push(`paid in ${report.payCurrency} instead of ${row.pay_currency}`);
  if (report.priceAmount !== null && report.priceAmount !== row.price_amount) blocking.push(`price ${microToDecimal(report.priceAmount)} does not match`);

  const actuallyPaid = report.actuallyPaid > row.actually_paid ? report.actuallyPaid : row.actually_paid;
  const payAmount = report.payAmount !== null && report.payAmount > 0n ? report.payAmount : row.pay_amount;
  const status = report.status;
  const notes: string[] = [];

  let credited = row.credited_amount;
  let delta = 0n;
  const mayCredit = !row.needs_review && !blocking.length && CREDIT_STATUSES.includes(status);
  if (mayCredit && payAmount > 0n) {
    // What arrived, in USD at the payment's rate, not capped at the price: an overpayment is credited in full (issue 47).
    const target = mulDivDown(row.price_amount, actuallyPaid, payAmount);
    delta = await creditDeposit(tx, row, credited, target);
    credited += delta;
  }
  if (credited > 0n && (status === 'failed' || status === 'refunded')) notes.push(`credited ${microToDecimal(credited)} but the gateway now reports ${status}`);

  const reasons = [...blocking, ...notes].filter((r) => !row.review_reason?.includes(r));
  const received = actuallyPaid > row.actually_paid || (report.txHash && report.txHash !== row.tx_hash);

  const updated = await movePayment(
    tx,
    {
      id: row.id,
      status,
      actuallyPaid,
      payAmount,
      confirmations: Math.max(row.confirmations, report.confirmations ?? 0),
      txHash: report.txHash ?? row.tx_hash,
      creditedAmount: credited,
      needsReview: row.needs_review || reasons.length > 0,
      reviewReason: reasons.length ? [row.review_reason, ...reasons].filter(Boolean).join('; ').slice(0, 1000) : row.review_reason,
      lastCheckedAt: now,
      ...(received ? { extraSet: { last_transaction_time: now.toISOString() } } : {}),
    },
    now,
  );
  // canMove was checked above under the same row lock, so the writer takes this move.
  if (!updated) throw new Error(`payment ${row.id}: ${row.status} cannot move to ${status}`);
  return { row: updated, credited: delta, applied: true };
}

/**
 * THE place a deposit is credited (docs/decisions/2026-11-22-deposit-crediting.md and
 * 2026-11-23-top-ups-after-a-final-status.md): raises what a payment has credited from
 * `alreadyCredited` to `target`, posting only the difference (gateway clearing → the user's
 * `deposit`) under the key `deposit:<payment>:<target>`, so the same report applied twice, by
 * any path (IPN, poller, status call, sandbox chain job), posts once. Runs in the caller's
 * transaction, which holds the payment's row lock and writes `credited_amount`. Returns the
 * micro-units credited now (0 when nothing new).
 */
export async function creditDeposit(tx: Tx, row: PaymentRow, alreadyCredited: bigint, target: bigint): Promise<bigint> {
  if (target <= alreadyCredited) return 0n;
  const delta = target - alreadyCredited;
  const created = await postDepositCredit(tx, {
    key: `deposit:${row.id}:${target}`,
    userId: row.user_id,
    amount: delta,
    payCurrency: row.pay_currency,
    memo: `Deposit via ${row.provider} payment ${row.provider_payment_id}`,
  });
  return created ? delta : 0n;
}

/**
 * The user's payments that still wait for money or confirmations, newest first: the open ones,
 * and a `partially_paid` one while its window is open (the rest may still arrive as a top-up;
 * not a child payment, which is an admin's to review).
 */
export async function listPending(db: Executor, userId: bigint): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([
        eb('status', 'in', OPEN_STATUSES),
        eb.and([eb('status', '=', 'partially_paid'), eb('window_end', '>', new Date()), eb('parent_payment_id', 'is', null)]),
      ]),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

/** POST /status: re-checks with the gateway, then answers the stored state. */
export async function refreshOwnPayment(ctx: AppContext, userId: bigint, paymentId: string): Promise<PaymentRow> {
  const row = await findOwnPayment(ctx.db, userId, paymentId);
  return refreshPayment(ctx, row);
}

/**
 * NOWPayments has no cancel call, so a cancel is local: a payment still waiting with nothing
 * received is marked `expired` (its address is simply no longer shown). If money arrives later
 * anyway, the poller finds it and `expired` moves on to the paid status, which is credited.
 *
 * A cancel that races a pay is decided under the payment's row lock (issue 47): either the
 * payment is cancelled and the pay that raced it is refused (sandbox-chain.ts checks under the
 * same lock), so it is never credited; or money reached the gateway first and the cancel is
 * refused, saying what arrived (and it is credited). The sandbox chain keeps its state in this
 * database, so its received amount is read inside the lock; a hosted gateway is read just
 * before, and again after the commit (a network wait must not hold the lock).
 */
export async function cancelPayment(ctx: AppContext, userId: bigint, paymentId: string): Promise<PaymentRow> {
  const current = await findOwnPayment(ctx.db, userId, paymentId);
  // A transfer may have arrived since the last check: look before letting it go.
  const fresh = await refreshPayment(ctx, current);
  const outcome = await ctx.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('payments').selectAll().where('id', '=', fresh.id).forUpdate().executeTakeFirstOrThrow();
    if (row.status !== 'waiting' || row.actually_paid > 0n) return { refused: row, arrived: false };
    if (row.provider === 'sandbox') {
      // A transfer commits under this same row lock: one that won it is on the chain now.
      const chain = await tx.selectFrom('sandbox_chain_payments').select('received').where('id', '=', BigInt(row.provider_payment_id)).executeTakeFirst();
      if (chain && chain.received > 0n) return { refused: row, arrived: true };
    }
    const now = new Date();
    const moved = await movePayment(tx, { id: row.id, status: 'expired', by: 'user', from: ['waiting'], extraSet: { cancelled_at: now.toISOString() } }, now);
    return moved ? { cancelled: moved } : { refused: row, arrived: false };
  });
  if ('refused' in outcome) {
    // Money that reached the chain first is applied now (credited when it is), and the refusal says so.
    throw notCancellable(outcome.arrived ? await refreshPayment(ctx, outcome.refused!, { force: true }) : outcome.refused!);
  }
  const after = await refreshPayment(ctx, outcome.cancelled, { force: true });
  if (after.actually_paid > 0n) throw notCancellable(after);
  return after;
}

/** The refusal of a cancel, saying what happened to the payment instead. */
function notCancellable(row: PaymentRow): AppError {
  const refused = 'Payment can no longer be cancelled';
  if (row.credited_amount > 0n)
    return new AppError('BAD_REQUEST', `${refused}: ${usdtText(row.credited_amount)} USDT was received and credited to your deposit balance`);
  if (row.actually_paid > 0n) {
    // Every pay currency is USDT on some chain.
    const next = row.needs_review ? 'is being reviewed before it is credited' : 'will be credited once confirmed';
    return new AppError('BAD_REQUEST', `${refused}: ${usdtText(row.actually_paid)} USDT was received and ${next}`);
  }
  return new AppError('BAD_REQUEST', refused);
}

/** Admin list: every payment, newest first, optionally only those waiting for review or of one status. */
export async function listPaymentsForAdmin(
  db: Executor,
  opts: { needsReview?: boolean; status?: PaymentStatus; page: number; perPage: number },
): Promise<{ rows: (PaymentRow & { username: string; email: string })[]; total: number }> {
  let q = db.selectFrom('payments').innerJoin('users', 'users.id', 'payments.user_id');
  if (opts.needsReview !== undefined) q = q.where('payments.needs_review', '=', opts.needsReview);
  if (opts.status) q = q.where('payments.status', '=', opts.status);
  return paginate(q, opts.page, opts.perPage, (p) =>
    p.selectAll('payments').select(['users.username', 'users.email']).orderBy('payments.created_at', 'desc').orderBy('payments.id', 'desc'),
  );
}

// For the admin list and the history module.
export type { PaymentStatus } from './status';
export { listDepositHistory } from './history';
export { postDepositCredit } from './deposit-credit';
export { movePayments, type StatusMove } from './status-writer';
export { dismissObservation } from './dismiss-observation';
export { chainKey, creditBelowMinimumObservation, recordChainDeposit, recordChainDeposits, type ChainDeposit } from './chain-deposits';
