import { PAYMENT_STATUSES } from '@app/core/statuses';
import type { BadgeTone } from '../components/ui/badge';

/**
 * How a deposit (a payment) is presented, written once (docs/ux-rules.md, "Payment status"): the
 * payment panel, the 'Pending Payments' cards, /transaction and the dashboard read this table, so a
 * status never has one colour in one place and another elsewhere.
 *
 * - Only `finished` is green. The gateway's transient statuses (confirming, confirmed, sending)
 *   are blue "Confirming…": a short payment passes through `confirmed` on its way to
 *   `partially_paid`, and a green "Confirmed" there told people their 60 of 100 was a success.
 * - A payment that took money short of what was asked is amber, and shows "X of Y".
 * - A payment that ended without money (expired, failed, refunded, cancelled) is shown as what
 *   was received of what was asked, in grey: "$0.00 of $20.00", never a green "$20.00".
 * - `cancelled` is not a gateway status: the server marks a cancelled payment `expired` with a
 *   `cancelled_at` in its extra (payments/service.ts cancelPayment).
 */
export const PAYMENT_STATUS_KEYS = [...PAYMENT_STATUSES, 'cancelled'] as const;
export type PaymentStatusKey = (typeof PAYMENT_STATUS_KEYS)[number];

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
  tone: BadgeTone;
  words: string;
  amount: AmountRule;
  amountTone: AmountTone;
  /** No more money is expected: the address is not shown any more. */
  closed: boolean;
}

export const PAYMENT_PRESENTATION: Record<PaymentStatusKey, PaymentPresentation> = {
  waiting: { tone: 'purple', words: 'Waiting', amount: 'asked', amountTone: 'plain', closed: false },
  confirming: { tone: 'info', words: 'Confirming…', amount: 'received_of_asked', amountTone: 'plain', closed: false },
  confirmed: { tone: 'info', words: 'Confirming…', amount: 'received_of_asked', amountTone: 'plain', closed: false },
  sending: { tone: 'info', words: 'Confirming…', amount: 'received_of_asked', amountTone: 'plain', closed: false },
  partially_paid: { tone: 'warning', words: 'Partially paid', amount: 'received_of_asked', amountTone: 'warning', closed: true },
  finished: { tone: 'success', words: 'Finished', amount: 'received', amountTone: 'success', closed: true },
  failed: { tone: 'danger', words: 'Failed', amount: 'received_of_asked', amountTone: 'muted', closed: true },
  refunded: { tone: 'neutral', words: 'Refunded', amount: 'received_of_asked', amountTone: 'muted', closed: true },
  expired: { tone: 'danger', words: 'Expired', amount: 'received_of_asked', amountTone: 'muted', closed: true },
  cancelled: { tone: 'neutral', words: 'Cancelled', amount: 'received_of_asked', amountTone: 'muted', closed: true },
};

/** A status the table does not know (a gateway adding one): neutral, its own words, open. */
const UNKNOWN: Omit<PaymentPresentation, 'words'> = { tone: 'info', amount: 'received_of_asked', amountTone: 'plain', closed: false };

/** The table's key for a payment: its status, or `cancelled` for an expired payment the user cancelled. */
export function paymentStatusKey(status: string, extra?: { cancelled_at?: unknown } | null): string {
  const s = status.toLowerCase();
  if (s === 'expired' && typeof extra?.cancelled_at === 'string' && extra.cancelled_at) return 'cancelled';
  return s;
}

export function presentPayment(key: string): PaymentPresentation {
  return (PAYMENT_PRESENTATION as Record<string, PaymentPresentation>)[key] ?? { ...UNKNOWN, words: capitalise(key) };
}

const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : s);

/** Tailwind text colours of the amount tones (the badge tones live in components/ui/badge.tsx). */
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
export function paymentAmountText(key: string, amounts: { received: number; asked: number }, format: { money: (n: number) => string; unit?: string }): string {
  const rule = presentPayment(key).amount;
  const unit = format.unit ? ` ${format.unit}` : '';
  if (rule === 'asked') return `${format.money(amounts.asked)}${unit}`;
  if (rule === 'received') return `${format.money(amounts.received)}${unit}`;
  return `${format.money(amounts.received)} of ${format.money(amounts.asked)}${unit}`;
}
