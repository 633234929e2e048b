import type { THistoryRecord } from '@app/core/contracts';
import type { BadgeTone } from '../../../components/ui/badge';
import { shownAmount as amountShown } from '../../../lib/shown-amount';

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
  /** chain gateway: the network's code, confirmations, the mainnet explorer page, why it was not credited */
  network_code: string | null;
  confirmations_received: number | null;
  required_confirmations: number | null;
  explorer_url: string | null;
  not_credited: string;
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

/** History status badges (spec section 4), case-insensitive. */
export function historyTone(status: string): BadgeTone {
  const s = status.toLowerCase();
  if (['confirmed', 'finished', 'completed'].includes(s)) return 'success';
  if (['partially_paid', 'pending', 'waiting'].includes(s)) return 'warning';
  if (['failed', 'error', 'expired'].includes(s)) return 'danger';
  return 'secondary';
}

export const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1).toLowerCase().replace(/_/g, ' ') : s);

/** A public test-network explorer for the transaction hash. */
export function explorerUrl(hash: string, extra: Extra): string {
  // The chain gateway names the network's own explorer.
  if (extra.explorer_url) return extra.explorer_url;
  const net = `${extra.pay_currency ?? ''} ${extra.network ?? ''}`.toLowerCase();
  if (net.includes('trc20') || net.includes('tron')) return `https://nile.tronscan.org/#/transaction/${hash}`;
  if (net.includes('matic') || net.includes('polygon')) return `https://amoy.polygonscan.com/tx/${hash}`;
  return `https://testnet.bscscan.com/tx/${hash}`;
}
