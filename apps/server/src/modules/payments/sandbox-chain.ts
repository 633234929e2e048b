import { microToDecimal, toMicro } from '@app/core';
import type { AppContext } from '../../context';
import { AppError, fieldError } from '../../lib/errors';
import { paymentsRuntime } from './gateways/registry';
import type { PaymentRow } from './present';
import { PAYMENT_NOT_FOUND, refreshPayment } from './service';
import './table';

/**
 * Statuses a sandbox payment can still receive a transfer in: open ones, a top-up after a short
 * payment, and a late transfer after the window (`expired`, a cancel included), which a real chain
 * cannot refuse either: it is credited for what arrived, like a partial payment
 * (docs/decisions/2026-11-27-late-deposits.md). A finished, failed or refunded payment takes none.
 */
const PAYABLE = new Set(['waiting', 'confirming', 'confirmed', 'sending', 'partially_paid', 'expired']);

/** The refusal of a pay that raced a cancel and lost. */
export const PAYMENT_CANCELLED = 'Payment was cancelled before this transfer arrived';

/** The answer to a pay sent to a payment its owner had already cancelled: money that arrives anyway is credited, as on a real chain. */
export const LATE_DEPOSIT_MESSAGE = 'Payment sent to a cancelled payment: it is credited as a late deposit';

const cancelledAt = (row: Pick<PaymentRow, 'extra'>) => (typeof row.extra?.cancelled_at === 'string' ? row.extra.cancelled_at : null);

async function findSandboxPayment(ctx: AppContext, paymentId: string, userId?: bigint): Promise<PaymentRow> {
  if (paymentsRuntime(ctx).active.provider !== 'sandbox') throw new AppError('NOT_FOUND', 'Not found');
  let q = ctx.db.selectFrom('payments').selectAll().where('provider', '=', 'sandbox').where('provider_payment_id', '=', paymentId);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const row = await q.executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', PAYMENT_NOT_FOUND);
  return row;
}

/**
 * Simulates a transfer of `amount` micro-USDT to a sandbox payment's address (POST
 * /api/sandbox/payments/:payment_id/pay and `sandbox:pay`). The payment then goes confirming →
 * confirmed → finished, or partially_paid when short, one step every `stepMs`. The steps are rows
 * in sandbox_chain_events, applied by the `payments:sandbox-chain` job in whichever process runs
 * next, after a restart too; timers here only run that job early. With stepMs 0 it settles at once.
 * A partially_paid payment takes a top-up; a payment past its window takes a late transfer.
 */
export async function sandboxPay(ctx: AppContext, paymentId: string, amount: bigint, userId?: bigint): Promise<{ row: PaymentRow; late: boolean }> {
  const rt = paymentsRuntime(ctx);
  const row = await findSandboxPayment(ctx, paymentId, userId);
  if (!PAYABLE.has(row.status)) throw new AppError('BAD_REQUEST', 'Payment can no longer be paid');
  // Checked again under the payment's row lock, in the transfer's transaction (issue 30, issue 47):
  // a cancel committed since the read above wins, and this pay, made against an open payment, is
  // refused and never credited; a cancel that starts now waits and then sees the money and is
  // refused. A transfer to a payment already cancelled when it was read is a late deposit and is
  // credited for what arrived (docs/decisions/2026-11-27-late-deposits.md).
  await rt.sandbox.transfer(row.provider_payment_id, amount, async (tx) => {
    const locked = await tx.selectFrom('payments').select(['status', 'extra']).where('id', '=', row.id).forUpdate().executeTakeFirstOrThrow();
    if (!PAYABLE.has(locked.status)) throw new AppError('BAD_REQUEST', 'Payment can no longer be paid');
    if (cancelledAt(locked) && !cancelledAt(row)) throw new AppError('BAD_REQUEST', PAYMENT_CANCELLED);
  });
  const after = await refreshPayment(ctx, row, { force: true, afterTransfer: true });
  if (rt.sandbox.stepMs > 0) {
    for (const delay of [rt.sandbox.stepMs, 2 * rt.sandbox.stepMs]) {
      const timer = setTimeout(() => {
        rt.timers.delete(timer);
        void processSandboxChainEvents(ctx, { chainPaymentId: BigInt(row.provider_payment_id) }).catch(() => undefined);
      }, delay + 50);
      timer.unref();
      rt.timers.add(timer);
    }
  }
  return { row: after, late: cancelledAt(row) !== null };
}

export interface ChainEventsResult {
  /** events applied (marked processed) */
  processed: number;
  /** payments whose re-read failed; their events stay due */
  failed: number;
}

/**
 * The `payments:sandbox-chain` job: applies every due sandbox chain step by re-reading its
 * payment and applying the report (the crediting rule decides what, if anything, is new), then
 * marks the steps processed. A step applied twice (two processes, or a crash between the apply
 * and the mark) credits nothing twice: the report is the chain's current state and the credit
 * is keyed by the cumulative total.
 */
export async function processSandboxChainEvents(ctx: AppContext, opts: { limit?: number; chainPaymentId?: bigint } = {}): Promise<ChainEventsResult> {
  const rt = paymentsRuntime(ctx);
  let q = ctx.db
    .selectFrom('sandbox_chain_events')
    .select(['id', 'chain_payment_id'])
    .where('processed_at', 'is', null)
    .where('due_at', '<=', new Date(rt.sandbox.now()));
  // A nudge for one transfer looks at that payment only, so it is not held up behind others.
  if (opts.chainPaymentId !== undefined) q = q.where('chain_payment_id', '=', opts.chainPaymentId);
  const due = await q
    .orderBy('due_at')
    .orderBy('id')
    .limit(opts.limit ?? 500)
    .execute();
  const byPayment = new Map<bigint, bigint[]>();
  for (const e of due) byPayment.set(e.chain_payment_id, [...(byPayment.get(e.chain_payment_id) ?? []), e.id]);
  const result: ChainEventsResult = { processed: 0, failed: 0 };
  for (const [chainId, ids] of byPayment) {
    try {
      const row = await ctx.db
        .selectFrom('payments')
        .selectAll()
        .where('provider', '=', 'sandbox')
        .where('provider_payment_id', '=', String(chainId))
        .executeTakeFirst();
      if (row) await refreshPayment(ctx, row, { force: true, afterTransfer: true });
      await ctx.db.updateTable('sandbox_chain_events').set({ processed_at: new Date() }).where('id', 'in', ids).where('processed_at', 'is', null).execute();
      result.processed += ids.length;
    } catch {
      result.failed++;
    }
  }
  return result;
}

/** Ends a sandbox payment's confirmation wait now and applies the final state (tests, demos). */
export async function settleSandboxPayment(ctx: AppContext, paymentId: string): Promise<PaymentRow> {
  const row = await findSandboxPayment(ctx, paymentId);
  await paymentsRuntime(ctx).sandbox.settle(row.provider_payment_id);
  return refreshPayment(ctx, row, { force: true, afterTransfer: true });
}

/**
 * The CLI's `sandbox:pay <payment_id> <amount> [--settle]`: amount in USDT. Waits for the simulated
 * confirmations (or ends them at once with --settle) and returns the line to print.
 */
export async function sandboxPayCommand(ctx: AppContext, args: string[]): Promise<string> {
  const settle = args.includes('--settle');
  const [paymentId, amountText] = args.filter((a) => a !== '--settle');
  if (!paymentId || !amountText) throw new Error('usage: sandbox:pay <payment_id> <amount> [--settle]');
  const amount = toMicro(amountText);
  if (amount === null || amount <= 0n) throw new Error(`not an amount: ${amountText}`);
  let { row } = await sandboxPay(ctx, paymentId, amount);
  if (settle) row = await settleSandboxPayment(ctx, paymentId);
  else {
    // Let the simulated chain play out (a few seconds), so the line printed is the final state
    // even when this runs in a CLI process that exits right after.
    const stepMs = paymentsRuntime(ctx).sandbox.stepMs;
    if (stepMs > 0) {
      await new Promise((r) => setTimeout(r, 2 * stepMs + 100));
      await processSandboxChainEvents(ctx, { chainPaymentId: BigInt(row.provider_payment_id) });
      row = await refreshPayment(ctx, row, { force: true });
    }
  }
  return `payment ${row.provider_payment_id}: ${row.status}, received ${microToDecimal(row.actually_paid)} of ${microToDecimal(row.pay_amount)} USDT, credited ${microToDecimal(row.credited_amount)} USD`;
}

export function sandboxAmount(amount: number): bigint {
  const micro = toMicro(amount);
  if (micro === null || micro <= 0n) throw fieldError('amount', 'Amount must be greater than 0');
  return micro;
}
