import { PAYMENT_STATUS_KEYS, type PaymentStatusKey } from './status-presentation';

/**
 * How a deposit (a payment) is presented, written once (docs/ux-rules.md, "Payment status"): the
 * payment panel, the 'Pending Payments' cards, /transaction and the dashboard read this table, so a
 * status never has one colour in one place and another elsewhere. The badge (words and colour) of
 * every status is in lib/status-presentation.ts with every other kind's; this table adds what only
 * a payment has: which amount it shows, in which colour, and whether its address is closed.
 *
 * - Only `finished` is green. The gateway's transient statuses (confirming, confirmed, sending)
 *   are blue "Confirming…": a short payment passes through `confirmed` on its way to
 *   `partially_paid`, and a green "Confirmed" there told people their 60 of 100 was a success.
 * - A payment that took money short of what was asked is amber, and shows "X of Y".
 * - A payment that ended without money (expired, failed, refunded, cancelled) is shown as what
 *   was received of what was asked, in grey: "$0.00 of $20.00", never a green "$20.00".
 * - `cancelled` is not a gateway status: the server marks a cancelled payment `expired` with a
 *   `cancelled_at` in its extra and a `{ status: 'expired', by: 'user' }` history entry
 *   (payments/service.ts cancelPayment).
 */
export { PAYMENT_STATUS_KEYS, type PaymentStatusKey };

/**
 * Which amount a status shows:
 * - `asked`: the amount to send (nothing has arrived yet);
 * - `received`: what arrived (the payment is complete);
 * - `received_of_asked`: what arrived of what was asked ("60.00 of 100.00").
 */
export type AmountRule = 'asked' | 'received' | 'received_of_asked';
/** The amount's colour: plain (still open), green (complete), amber (short), grey (nothing came of it). */
export type AmountTone = 'plain' | 'success' | 'warning' | 'muted';

export interface PaymentPresentation {
  amount: AmountRule;
  amountTone: AmountTone;
  /** No more money is expected: the address is not shown any more. */
  closed: boolean;
}

export const PAYMENT_PRESENTATION: Record<PaymentStatusKey, PaymentPresentation> = {
  waiting: { amount: 'asked', amountTone: 'plain', closed: false },
  confirming: { amount: 'received_of_asked', amountTone: 'plain', closed: false },
  confirmed: { amount: 'received_of_asked', amountTone: 'plain', closed: false },
  sending: { amount: 'received_of_asked', amountTone: 'plain', closed: false },
  partially_paid: { amount: 'received_of_asked', amountTone: 'warning', closed: true },
  finished: { amount: 'received', amountTone: 'success', closed: true },
  failed: { amount: 'received_of_asked', amountTone: 'muted', closed: true },
  refunded: { amount: 'received_of_asked', amountTone: 'muted', closed: true },
  expired: { amount: 'received_of_asked', amountTone: 'muted', closed: true },
  cancelled: { amount: 'received_of_asked', amountTone: 'muted', closed: true },
};

/** A status the table does not know (a gateway adding one): its amount of what was asked, open. */
const UNKNOWN: PaymentPresentation = { amount: 'received_of_asked', amountTone: 'plain', closed: false };

/**
 * The table's key for a payment: its status, or `cancelled` for an expired payment the user
 * cancelled (a `cancelled_at`, or the user's own `expired` in the extra's history).
 */
export function paymentStatusKey(status: string, extra?: { cancelled_at?: unknown; history?: unknown } | null): string {
  const s = status.toLowerCase();
  if (s === 'expired' && (isSet(extra?.cancelled_at) || cancelledByUser(extra?.history))) return 'cancelled';
  return s;
}

const isSet = (v: unknown) => typeof v === 'string' && v !== '';
const cancelledByUser = (history: unknown) =>
  Array.isArray(history) &&
  history.some((h: unknown) => !!h && typeof h === 'object' && (h as { status?: unknown }).status === 'expired' && (h as { by?: unknown }).by === 'user');

export function presentPayment(key: string): PaymentPresentation {
  return Object.hasOwn(PAYMENT_PRESENTATION, key) ? PAYMENT_PRESENTATION[key as PaymentStatusKey] : UNKNOWN;
}

/** Tailwind text colours of the amount tones (the badge's are in components/ui/badge.tsx, chosen in lib/status-presentation.ts). */
export const AMOUNT_TONE_CLASS: Record<AmountTone, string> = {
  plain: 'text-white',
  success: 'text-emerald-300',
  warning: 'text-amber-300',
  muted: 'text-slate-400',
};

/**
 * The amount as the table says, e.g. "$0.00 of $20.00" or "60.00 of 100.00 USDT". `money` formats
 * one figure the way the place shows money ("$20.00" on /transaction, "20.00 USDT" elsewhere is
 * written once at the end by `unit`).
 */
export function paymentAmountText(
  key: string,
  amounts: { received: number; asked: number; credited?: number | null },
  format: { money: (n: number) => string; unit?: string },
): string {
  const rule = presentPayment(key).amount;
  const unit = format.unit ? ` ${format.unit}` : '';
  if (rule === 'asked') return `${format.money(amounts.asked)}${unit}`;
  if (rule === 'received') {
    // What was credited, never what arrived as if it were (issue 47): money held for review says so.
    if (underReview(key, amounts)) return `${format.money(amounts.received)}${unit} received, under review`;
    return `${format.money(amounts.credited ?? amounts.received)}${unit}`;
  }
  return `${format.money(amounts.received)} of ${format.money(amounts.asked)}${unit}`;
}

/**
 * A finished payment whose money arrived but is not (all) credited: the gateway reported it against
 * another order, currency or price, and an admin reviews it (payments/service.ts applyReport). The
 * screens show it as received and under review, never as credited. Unknown when the server sent no
 * credited amount (an older server): then nothing is said.
 */
export function underReview(key: string, amounts: { received: number; credited?: number | null }): boolean {
  return key === 'finished' && typeof amounts.credited === 'number' && amounts.credited < amounts.received && amounts.received > 0;
}
