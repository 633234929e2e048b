import { randomInt } from 'node:crypto';
import { microToDecimal } from '@app/core';
import type { Insertable } from 'kysely';
import type { Tx } from '../../db/types';
import { AppError } from '../../lib/errors';
import type { PaymentRow } from './present';
import type { PaymentsTable } from './table';
import { postDepositCredit, postDepositCredits } from './deposit-credit';
import { canMove, type PaymentStatus } from './status';
import { movePayment, movePayments } from './status-writer';
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

/**
 * A final chain transfer reaches the user's payments (custody.md section 2), in the watcher's
 * transaction: credited in full through the one deposit posting (postDepositCredits), once per
 * ledger key; the payment that claimed it takes the amount (finished when it reaches the amount
 * asked, partially_paid while short); a transfer no open payment claims becomes its own finished
 * payment, so nothing that arrives is invisible. A transfer under the minimum becomes its own
 * payment too, `failed` and marked for review with the reason, credited nothing until an admin
 * does (creditHeldChainDeposit). Returns the payment and whether the ledger took the credit
 * (false: the key was posted before, nothing written).
 */
export async function recordChainDeposit(tx: Tx, d: ChainDeposit): Promise<{ paymentId: bigint; credited: boolean }> {
  return (await recordChainDeposits(tx, [d]))[0]!;
}

interface Claim {
  row: PaymentRow;
  status: PaymentStatus;
  paid: bigint;
  credited: bigint;
  confirmations: number;
  txHash: string | null;
  history: { status: PaymentStatus; at: string }[];
}

/**
 * recordChainDeposit for a batch, in order, as if one after the other (two transfers claimed by
 * one payment add up, and may take it through partially_paid to finished), in a fixed number of
 * statements: one ledger call, one lock of the claimed payments, one update of them, one insert of
 * the payments of unclaimed and held transfers.
 */
export async function recordChainDeposits(tx: Tx, deposits: ChainDeposit[]): Promise<{ paymentId: bigint; credited: boolean }[]> {
  if (!deposits.length) return [];
  const toCredit = deposits.filter((d) => d.credit);
  const postedList = await postDepositCredits(
    tx,
    toCredit.map((d) => ({ key: d.key, userId: d.userId, amount: d.amount, payCurrency: d.payCurrency, memo: `Deposit on ${d.network}: ${d.txHash}` })),
  );
  const posted = new Map(toCredit.map((d, i) => [d, postedList[i]!]));
  const now = new Date();

  const claimedIds = [...new Set(deposits.filter((d) => d.credit && posted.get(d) && d.paymentId !== null).map((d) => d.paymentId!))];
  const claims = new Map<bigint, Claim>();
  if (claimedIds.length) {
    const rows = await tx.selectFrom('payments').selectAll().where('id', 'in', claimedIds).orderBy('id').forUpdate().execute();
    for (const row of rows)
      claims.set(row.id, {
        row,
        status: row.status,
        paid: row.actually_paid,
        credited: row.credited_amount,
        confirmations: row.confirmations,
        txHash: row.tx_hash,
        history: [],
      });
  }

  const out: ({ paymentId: bigint; credited: boolean } | { insert: number })[] = [];
  const inserts: Insertable<PaymentsTable>[] = [];
  const ids = new Set<string>();
  for (const d of deposits) {
    if (d.credit && !posted.get(d)) {
      out.push({ paymentId: d.paymentId ?? 0n, credited: false });
      continue;
    }
    const claim = d.credit && d.paymentId !== null ? claims.get(d.paymentId) : undefined;
    if (claim && claim.row.user_id === d.userId) {
      const paid = claim.paid + d.amount;
      const status: PaymentStatus = paid >= claim.row.pay_amount ? 'finished' : 'partially_paid';
      if (canMove(claim.status, status)) {
        if (status !== claim.status) claim.history.push({ status, at: now.toISOString() });
        Object.assign(claim, {
          status,
          paid,
          credited: claim.credited + d.amount,
          confirmations: Math.max(claim.confirmations, d.confirmations),
          txHash: d.txHash,
        });
        out.push({ paymentId: claim.row.id, credited: d.credit });
        continue;
      }
    }
    const status: PaymentStatus = d.credit ? 'finished' : 'failed';
    let providerId = chainPaymentId();
    while (ids.has(providerId)) providerId = chainPaymentId();
    ids.add(providerId);
    out.push({ insert: inserts.length });
    inserts.push({
      user_id: d.userId,
      provider: 'chain',
      provider_payment_id: providerId,
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
    });
  }

  const changed = [...claims.values()].filter((c) => c.paid !== c.row.actually_paid);
  await movePayments(
    tx,
    changed.map((c) => ({
      id: c.row.id,
      status: c.status,
      // every status passed on the way (partially_paid, then finished) is in the history
      via: c.history.slice(0, -1).map((h) => h.status),
      actuallyPaid: c.paid,
      creditedAmount: c.credited,
      confirmations: c.confirmations,
      txHash: c.txHash,
    })),
    now,
  );
  const created = new Map<string, bigint>();
  if (inserts.length) {
    const rows = await tx.insertInto('payments').values(inserts).returning(['id', 'provider_payment_id']).execute();
    for (const r of rows) created.set(r.provider_payment_id, r.id);
  }
  return out.map((o, i) => ('insert' in o ? { paymentId: created.get(inserts[o.insert]!.provider_payment_id)!, credited: deposits[i]!.credit } : o));
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
  const moved = await movePayment(tx, {
    id: p.id,
    status: 'finished',
    by: 'admin',
    from: ['failed'],
    creditedAmount: p.actually_paid,
    needsReview: false,
    extraUnset: ['not_credited'],
  });
  if (!moved) throw new Error(`payment ${p.id} is ${p.status}: an admin's credit moves a failed payment only`);
  return true;
}

/**
 * POST /api/admin/custody/observations/:id/credit: an admin credits a transfer that was recorded
 * under the minimum. Returns the observation's state before and after for the audit log, or null
 * when there is no such transfer waiting.
 */
export async function creditBelowMinimumObservation(tx: Tx, observationId: bigint, adminId: bigint): Promise<{ before: unknown; after: unknown } | null> {
  const o = await tx.selectFrom('chain_observations').selectAll().where('id', '=', observationId).forUpdate().executeTakeFirst();
  // What cannot be credited is the admin's mistake to be told about, not a server error.
  if (o?.status === 'held')
    throw new AppError('BAD_REQUEST', 'This transfer is above the automatic credit bound and cannot be credited here: check it on the chain, then dismiss it');
  if (o?.status === 'below_minimum' && o.amount === 0n)
    throw new AppError('BAD_REQUEST', `This transfer is below one micro-USDT (raw amount ${o.raw_amount}): there is nothing to credit. Dismiss it instead`);
  if (!o || o.status !== 'below_minimum' || o.payment_id === null) return null;
  await creditHeldChainDeposit(tx, { key: chainKey(o.network, o.tx_hash, o.log_index), paymentId: o.payment_id, network: o.network, txHash: o.tx_hash });
  await tx.updateTable('chain_observations').set({ status: 'credited', credited_by: adminId }).where('id', '=', o.id).execute();
  return { before: { status: o.status, amount: o.amount }, after: { status: 'credited', amount: o.amount, payment_id: o.payment_id } };
}
