import type { THistoryRecord } from '@app/core/contracts';
import { parseExtra, type Extra } from '../../../lib/history-record';

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
