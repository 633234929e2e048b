import type { BadgeTone } from '../../../components/ui/badge';
import type { Extra } from '../../../lib/history-record';

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
  const net = `${extra.pay_currency ?? ''} ${extra.network ?? ''}`.toLowerCase();
  if (net.includes('trc20') || net.includes('tron')) return `https://nile.tronscan.org/#/transaction/${hash}`;
  if (net.includes('matic') || net.includes('polygon')) return `https://amoy.polygonscan.com/tx/${hash}`;
  return `https://testnet.bscscan.com/tx/${hash}`;
}
