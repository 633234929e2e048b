import { randomInt } from 'node:crypto';
import { microToDecimal } from '@app/core';
import { sql } from 'kysely';
import type { Tx } from '../../db/types';
import type { PaymentRow } from './present';
import { postDepositCredit } from './deposit-credit';
import { canMove, type PaymentStatus } from './status';
import './table';
import '../custody/table';

export interface ChainDeposit {
  /** the ledger key: `chain:<network>:<tx_hash>:<log_index>` */
  key: string;
  userId: bigint;
  network: string;
  payCurrency: string;
  /** micro-USDT that arrived */
  amount: bigint;
  /** the payment the transfer was claimed by when seen, if any */
  paymentId: bigint | null;
  /** the receiving address as users see it */
  address: string;
  txHash: string;
  confirmations: number;
  requiredConfirmations: number;
  /** false: recorded and shown, not credited (under the minimum) */
  credit: boolean;
  /** why it is not credited, shown to the user and the admin */
  reason?: string;
}

/** The ledger key of a chain transfer (custody.md section 3): one per log, whoever credits it. */
export const chainKey = (network: string, txHash: string, logIndex: number) => `chain:${network}:${txHash}:${logIndex}`;

/** A random 16-digit id, like the numeric ids of the other gateways. */
export function chainPaymentId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`;
}

const history = (status: PaymentStatus, at: Date, by?: string) =>
  sql`coalesce(extra->'history', '[]'::jsonb) || jsonb_build_array(${JSON.stringify({ status, at: at.toISOString(), ...(by ? { by } : {}) })}::jsonb)`;

/**
 * A final chain transfer reaches the user's payments (custody.md section 2), in the watcher's
 * transaction: credited in full through the one deposit posting (postDepositCredit), once per
 * ledger key; the payment that claimed it takes the amount (finished when it reaches the amount
 * asked, partially_paid while short); a transfer no open payment claims becomes its own finished
 * payment, so nothing that arrives is invisible. A transfer under the minimum becomes its own
 * payment too, `failed` and marked for review with the reason, credited nothing until an admin
 * does (creditHeldChainDeposit). Returns the payment and whether the ledger took the credit
 * (false: the key was posted before, nothing written).
 */
export async function recordChainDeposit(tx: Tx, d: ChainDeposit): Promise<{ paymentId: bigint; credited: boolean }> {
  if (d.credit) {
    const posted = await postDepositCredit(tx, {
      key: d.key,
      userId: d.userId,
      amount: d.amount,
      payCurrency: d.payCurrency,
      memo: `Deposit on ${d.network}: ${d.txHash}`,
    });
    if (!posted) return { paymentId: d.paymentId ?? 0n, credited: false };
  }
  const now = new Date();
  let claimed: PaymentRow | undefined;
  if (d.credit && d.paymentId !== null) {
    claimed = await tx.selectFrom('payments').selectAll().where('id', '=', d.paymentId).where('user_id', '=', d.userId).forUpdate().executeTakeFirst();
  }
  if (claimed) {
    const paid = claimed.actually_paid + d.amount;
    const status: PaymentStatus = paid >= claimed.pay_amount ? 'finished' : 'partially_paid';
    if (canMove(claimed.status, status)) {
      await tx
        .updateTable('payments')
        .set({
          status,
          actually_paid: paid,
          credited_amount: claimed.credited_amount + d.amount,
          confirmations: Math.max(claimed.confirmations, d.confirmations),
          tx_hash: d.txHash,
          extra: status !== claimed.status ? sql`jsonb_set(extra, '{history}', ${history(status, now)})` : sql`extra`,
          updated_at: now,
        })
        .where('id', '=', claimed.id)
        .execute();
      return { paymentId: claimed.id, credited: d.credit };
    }
  }
  const status: PaymentStatus = d.credit ? 'finished' : 'failed';
  const row = await tx
    .insertInto('payments')
    .values({
      user_id: d.userId,
      provider: 'chain',
      provider_payment_id: chainPaymentId(),
      order_id: null,
      kind: 'deposit',
      pay_currency: d.payCurrency,
      price_amount: d.amount,
      pay_amount: d.amount,
      pay_address: d.address,
      window_end: now,
      status,
      actually_paid: d.amount,
      credited_amount: d.credit ? d.amount : 0n,
      confirmations: d.confirmations,
      tx_hash: d.txHash,
      needs_review: !d.credit,
      review_reason: d.credit ? null : (d.reason ?? `${microToDecimal(d.amount)} USDT not credited`),
      extra: JSON.stringify({
        network: d.network,
        required_confirmations: d.requiredConfirmations,
        unclaimed: true,
        ...(d.credit ? {} : { not_credited: d.reason ?? 'not credited' }),
        history: [{ status, at: now.toISOString() }],
      }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { paymentId: row.id, credited: d.credit };
}

/**
 * An admin credits a transfer that was recorded and not credited (under the minimum): the same
 * ledger key as any chain credit, so it is credited once whoever asks how often; its payment
 * becomes `finished`. The one move out of `failed` there is, and only by an admin, audited by the
 * caller (docs/custody.md).
 */
export async function creditHeldChainDeposit(tx: Tx, d: { key: string; paymentId: bigint; network: string; txHash: string }): Promise<boolean> {
  const p = await tx.selectFrom('payments').selectAll().where('id', '=', d.paymentId).forUpdate().executeTakeFirstOrThrow();
  const posted = await postDepositCredit(tx, {
    key: d.key,
    userId: p.user_id,
    amount: p.actually_paid,
    payCurrency: p.pay_currency,
    memo: `Deposit on ${d.network}: ${d.txHash} (credited by an admin)`,
  });
  if (!posted) return false;
  const now = new Date();
  await tx
    .updateTable('payments')
    .set({
      status: 'finished',
      credited_amount: p.actually_paid,
      needs_review: false,
      extra: sql`jsonb_set(extra - 'not_credited', '{history}', ${history('finished', now, 'admin')})`,
      updated_at: now,
    })
    .where('id', '=', p.id)
    .execute();
  return true;
}

/**
 * POST /api/admin/custody/observations/:id/credit: an admin credits a transfer that was recorded
 * under the minimum. Returns the observation's state before and after for the audit log, or null
 * when there is no such transfer waiting.
 */
export async function creditBelowMinimumObservation(tx: Tx, observationId: bigint, adminId: bigint): Promise<{ before: unknown; after: unknown } | null> {
  const o = await tx.selectFrom('chain_observations').selectAll().where('id', '=', observationId).forUpdate().executeTakeFirst();
  if (!o || o.status !== 'below_minimum' || o.payment_id === null) return null;
  await creditHeldChainDeposit(tx, { key: chainKey(o.network, o.tx_hash, o.log_index), paymentId: o.payment_id, network: o.network, txHash: o.tx_hash });
  await tx.updateTable('chain_observations').set({ status: 'credited', credited_by: adminId }).where('id', '=', o.id).execute();
  return { before: { status: o.status, amount: o.amount }, after: { status: 'credited', amount: o.amount, payment_id: o.payment_id } };
}
