import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Job } from '../../jobs/scheduler';
import { paymentsRuntime } from './gateways/registry';
import { processSandboxChainEvents } from './sandbox-chain';
import { refreshPayment } from './service';
import { OPEN_STATUSES } from './status';
import { movePayments } from './status-writer';
import type { PaymentProvider } from './table';

/** NOWPayments sends no IPN after `expired`, yet late deposits arrive: keep looking this long (nowpayments.md §7.9). */
const RECONCILE_EXPIRED_DAYS = 7;

export interface PollResult {
  checked: number;
  changed: number;
  failed: number;
}

/**
 * Re-checks payments with their gateway (every 30 s; the fallback for missed IPNs): open ones;
 * partially_paid ones, whose rest may still arrive (docs/decisions/2026-11-23-top-ups-after-a-
 * final-status.md), while their window is open and, for NOWPayments, for 7 days (the merchant or
 * 'payment cover' may turn them finished); and expired NOWPayments ones with nothing received for
 * 7 days. Least recently checked first, a batch per run. Idempotent: applying the same report
 * twice changes nothing.
 */
export async function pollPayments(ctx: AppContext, opts: { limit?: number } = {}): Promise<PollResult> {
  const rt = paymentsRuntime(ctx);
  const providers: PaymentProvider[] = rt.nowpayments ? ['sandbox', 'nowpayments'] : ['sandbox'];
  const now = new Date();
  const since = new Date(now.getTime() - RECONCILE_EXPIRED_DAYS * 86_400_000);
  const rows = await ctx.db
    .selectFrom('payments')
    .selectAll()
    .where('provider', 'in', providers)
    .where((eb) =>
      eb.or([
        eb('status', 'in', OPEN_STATUSES),
        eb.and([
          eb('status', '=', 'partially_paid'),
          eb.or([eb('window_end', '>', now), eb.and([eb('provider', '=', 'nowpayments'), eb('created_at', '>', since)])]),
        ]),
        eb.and([eb('status', '=', 'expired'), eb('provider', '=', 'nowpayments'), eb('actually_paid', '=', 0n), eb('created_at', '>', since)]),
      ]),
    )
    .orderBy(sql`last_checked_at nulls first`)
    .orderBy('id')
    .limit(opts.limit ?? 100)
    .execute();
  const result: PollResult = { checked: 0, changed: 0, failed: 0 };
  for (const row of rows) {
    try {
      const after = await refreshPayment(ctx, row, { force: true });
      result.checked++;
      if (after.status !== row.status || after.actually_paid !== row.actually_paid) result.changed++;
    } catch {
      result.failed++;
    }
  }
  return result;
}

/**
 * A waiting payment past its window with nothing received becomes `expired` (every minute). Money
 * that still arrives later is found by pollPayments and moves it on to a paid status.
 */
export async function expirePayments(ctx: AppContext): Promise<{ expired: number }> {
  return ctx.db.transaction().execute(async (tx) => {
    // Locked, so what was read holds when the one status writer moves them.
    const due = await tx
      .selectFrom('payments')
      .select('id')
      .where('status', '=', 'waiting')
      .where('actually_paid', '=', 0n)
      .where('window_end', '<', new Date())
      .orderBy('id')
      .forUpdate()
      .execute();
    const moved = await movePayments(
      tx,
      due.map((p) => ({ id: p.id, status: 'expired' as const, by: 'window' as const, from: ['waiting' as const] })),
    );
    return { expired: moved.length };
  });
}

/** For the jobs runner: name, interval, handler. */
export const paymentJobs: readonly Job[] = [
  { name: 'payments:poll', intervalMs: 30_000, run: (ctx) => pollPayments(ctx) },
  { name: 'payments:expire', intervalMs: 60_000, run: (ctx) => expirePayments(ctx) },
  // The sandbox chain's due steps; after a restart this is what applies a transfer made before it.
  { name: 'payments:sandbox-chain', intervalMs: 2_000, run: (ctx) => processSandboxChainEvents(ctx) },
];
