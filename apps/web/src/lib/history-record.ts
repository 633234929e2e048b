import type { THistoryRecord } from '@app/core/contracts';
import { shownAmount as amountShown } from './shown-amount';

/** What a history record carries beside its columns (read by /transaction and the pending-withdrawals notice). */
export type Extra = Partial<{
  amount_received: number | null;
  expected_amount: number | null;
  status: string;
  status_description: string | null;
  wallet_address: string | null;
  last_transaction_hash: string | null;
  created_at: string | null;
  expires_at: string | null;
  description: string;
  pay_currency: string;
  network: string;
  fee: number | null;
}>;

/** Extra is a JSON string parsed safely; on failure it is treated as empty. */
export function parseExtra(extra: unknown): Extra {
  if (extra && typeof extra === 'object') return extra as Extra;
  if (typeof extra !== 'string') return {};
  try {
    const v: unknown = JSON.parse(extra);
    return v && typeof v === 'object' ? (v as Extra) : {};
  } catch {
    return {};
  }
}

/** The amount shown: amount_received, else amount_usd, else amount, as an absolute value (0 or empty counts as absent). */
export function shownAmount(r: THistoryRecord): number {
  return amountShown({ amount_received: parseExtra(r.extra).amount_received, amount_usd: r.amount_usd, amount: r.amount });
}
