import type { THistoryRecord } from '@app/core/contracts';
import type { BadgeTone } from '../../../components/ui/badge';
import { parseExtra, type Extra } from '../../../lib/history-record';

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

/** A transfer's amount with its sign: "+$20.00" received, "−$10.00" sent (a true minus sign). */
export function signedTransfer(r: THistoryRecord, money: (n: number) => string): string {
  return `${r.amount < 0 ? '−' : '+'}${money(Math.abs(r.amount))}`;
}

/** "To X" for a transfer sent, "From Y" for one received. */
export function transferCounterparty(r: THistoryRecord): string | null {
  const e = parseExtra(r.extra);
  if (!e.counterparty) return null;
  return `${r.amount < 0 ? 'To' : 'From'} ${e.counterparty}`;
}
