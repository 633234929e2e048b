import { FINAL_PAYMENT_STATUSES, OPEN_PAYMENT_STATUSES, PAYMENT_STATUSES, type PaymentStatus } from '@app/core';

/**
 * Payment statuses (NOWPayments' own) and the one-way state machine over them (nowpayments.md §3
 * and §7.4): waiting < confirming < confirmed < sending < final. Gateways report out of order and
 * repeat themselves, so a report that would move a payment backwards is ignored.
 */
export { PAYMENT_STATUSES, type PaymentStatus };

export const OPEN_STATUSES = OPEN_PAYMENT_STATUSES;
export const FINAL_STATUSES = FINAL_PAYMENT_STATUSES;

/**
 * Statuses at which received funds are credited (docs/decisions/2026-11-22-deposit-crediting.md):
 * from `confirmed` on the transfer has its confirmations on chain; `sending` comes after it.
 */
export const CREDIT_STATUSES: readonly PaymentStatus[] = ['confirmed', 'sending', 'partially_paid', 'finished'];

/** Statuses that say money arrived: a payment that expired may still move to one of these (a late deposit found by polling). */
const PAID_STATUSES: readonly PaymentStatus[] = ['confirming', 'confirmed', 'sending', 'partially_paid', 'finished'];

const RANK: Record<PaymentStatus, number> = {
  waiting: 0,
  confirming: 1,
  confirmed: 2,
  sending: 3,
  partially_paid: 4,
  finished: 4,
  failed: 4,
  refunded: 4,
  expired: 4,
};

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export function isFinal(status: PaymentStatus): boolean {
  return RANK[status] === 4;
}

export function isOpen(status: PaymentStatus): boolean {
  return !isFinal(status);
}

/**
 * Whether a payment at `from` may take a report of `to`. The same status is accepted (its amounts
 * may have grown); a lower rank never; out of a final state only partially_paid → finished and
 * expired → a paid status.
 */
export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  if (from === to) return true;
  if (!isFinal(from)) return RANK[to] > RANK[from];
  if (from === 'partially_paid') return to === 'finished';
  if (from === 'expired') return PAID_STATUSES.includes(to);
  return false;
}

/** Short human text for the status, shown as `status_description`. */
export function statusDescription(status: PaymentStatus): string {
  switch (status) {
    case 'waiting':
      return 'Waiting for payment';
    case 'confirming':
      return 'Transaction detected, waiting for confirmations';
    case 'confirmed':
      return 'Payment confirmed on the blockchain';
    case 'sending':
      return 'Payment confirmed, settling';
    case 'partially_paid':
      return 'Payment received with a partial amount';
    case 'finished':
      return 'Payment completed';
    case 'failed':
      return 'Payment failed';
    case 'refunded':
      return 'Payment refunded';
    case 'expired':
      return 'Payment window expired';
  }
}
