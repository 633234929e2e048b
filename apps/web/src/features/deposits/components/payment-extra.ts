import type { TPaymentExtra } from '@app/core/contracts';

/** The fields the screens read, from the contract's shape (a field the server renames breaks the build here). */
export type PaymentExtra = Pick<
  TPaymentExtra,
  | 'amount_received'
  | 'expected_amount'
  | 'pay_currency'
  | 'status_description'
  | 'confirmations_received'
  | 'last_transaction_hash'
  | 'cancelled_at'
  | 'required_confirmations'
> & {
  /** USD credited for this payment; null when the server did not say (then the received amount stands for it) */
  credited_amount: number | null;
};

/** Payment extra is JSON text (or an object); unreadable data falls back to zero received, expected = amount, USDT. */
export function parseExtra(extra: unknown, amount: number): PaymentExtra {
  let obj: Record<string, unknown> = {};
  if (typeof extra === 'string') {
    try {
      const parsed: unknown = JSON.parse(extra);
      if (parsed && typeof parsed === 'object') obj = parsed as Record<string, unknown>;
    } catch {
      obj = {};
    }
  } else if (extra && typeof extra === 'object') obj = extra as Record<string, unknown>;
  const num = (v: unknown, d: number) =>
    typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d;
  return {
    amount_received: num(obj.amount_received, 0),
    expected_amount: num(obj.expected_amount, amount),
    pay_currency: typeof obj.pay_currency === 'string' && obj.pay_currency ? obj.pay_currency : 'USDT',
    status_description: typeof obj.status_description === 'string' ? obj.status_description : null,
    confirmations_received: num(obj.confirmations_received, 0),
    last_transaction_hash: typeof obj.last_transaction_hash === 'string' ? obj.last_transaction_hash : null,
    cancelled_at: typeof obj.cancelled_at === 'string' ? obj.cancelled_at : null,
    required_confirmations: typeof obj.required_confirmations === 'number' ? obj.required_confirmations : null,
    credited_amount: obj.credited_amount === undefined || obj.credited_amount === null ? null : num(obj.credited_amount, 0),
  };
}

/** The network reminder of the demo panel. */
export function networkName(payCurrency: string): string {
  if (payCurrency === 'usdtbsc') return 'BSC (BEP20)';
  if (payCurrency === 'usdttrc20') return 'TRON (TRC20)';
  return 'Polygon (MATIC)';
}
