/** What a history record carries beside its columns (read by /transaction and the pending-withdrawals notice). */
export type Extra = Partial<{
  amount_received: number | null;
  expected_amount: number | null;
  /** USD credited to the deposit balance for this payment (issue 47: what is shown as credited) */
  credited_amount: number | null;
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
  cancelled_at: string | null;
  direction: 'sent' | 'received';
  counterparty: string;
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
