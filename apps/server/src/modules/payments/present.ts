import { explorerTxUrl, microToNumber, type TPayCurrency } from '@app/core';
import type { TCurrencyOption, TDemoPayment, TPaymentExtra, TPendingPayment } from '@app/core/contracts';
import type { Selectable } from 'kysely';
import { statusDescription } from './status';
import type { PaymentsTable } from './table';

export type PaymentRow = Selectable<PaymentsTable>;

const TOKEN = { symbol: 'USDT', name: 'Tether USD', iconUrl: '/icons/usdt.svg' } as const;

/** The three deposit chains and how the screens show them (icons are served by the app under /icons). */
export const CURRENCY_OPTIONS: readonly TCurrencyOption[] = [
  {
    name: 'usdtbsc',
    symbol: 'USDT',
    iconUrl: TOKEN.iconUrl,
    chain: { name: 'Binance Smart Chain', shortName: 'BSC', symbol: 'BNB', iconUrl: '/icons/bsc.svg' },
  },
  {
    name: 'usdtmatic',
    symbol: 'USDT',
    iconUrl: TOKEN.iconUrl,
    chain: { name: 'Polygon', shortName: 'Polygon', symbol: 'MATIC', iconUrl: '/icons/polygon.svg' },
  },
  { name: 'usdttrc20', symbol: 'USDT', iconUrl: TOKEN.iconUrl, chain: { name: 'Tron', shortName: 'TRON', symbol: 'TRX', iconUrl: '/icons/tron.svg' } },
];

function chainOf(payCurrency: string) {
  return (CURRENCY_OPTIONS.find((c) => c.name === payCurrency) ?? CURRENCY_OPTIONS[0]!).chain;
}

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

function lastTransactionTime(row: PaymentRow): string | null {
  const v = row.extra?.last_transaction_time;
  return typeof v === 'string' ? v : null;
}

/**
 * What the chain gateway keeps with a payment (custody.md section 2): its network, the depth it
 * needs, and why a transfer was not credited. Absent for the hosted gateways.
 */
function chainFacts(row: PaymentRow): Partial<TPaymentExtra> {
  if (row.provider !== 'chain') return {};
  const e = row.extra ?? {};
  const network = typeof e.network === 'string' ? e.network : null;
  return {
    network_code: network,
    confirmations_received: row.confirmations,
    required_confirmations: typeof e.required_confirmations === 'number' ? e.required_confirmations : null,
    explorer_url: network && row.tx_hash ? explorerTxUrl(network, row.tx_hash) : null,
    ...(typeof e.not_credited === 'string' ? { not_credited: e.not_credited } : {}),
  };
}

/** The payment's confirmations as the contract carries them beside `extra` (issue 49): the count, and the depth its network needs. */
function confirmationFields(row: PaymentRow): { confirmations: number; required_confirmations: number | null } {
  const required = row.provider === 'chain' ? row.extra?.required_confirmations : undefined;
  return { confirmations: row.confirmations, required_confirmations: typeof required === 'number' ? required : null };
}

/** When the user cancelled the payment (kept as `expired`: the screens call it cancelled). */
function cancelledAt(row: PaymentRow): string | null {
  const v = row.extra?.cancelled_at;
  return typeof v === 'string' ? v : null;
}

/** The spec's "Payment extra" (JSON text): what arrived against what was expected. */
export function paymentExtra(row: PaymentRow): string {
  const extra: TPaymentExtra = {
    amount_received: microToNumber(row.actually_paid),
    expected_amount: microToNumber(row.pay_amount),
    credited_amount: microToNumber(row.credited_amount),
    pay_currency: TOKEN.symbol,
    status_description: statusDescription(row.status),
    confirmations_received: row.confirmations,
    last_transaction_hash: row.tx_hash,
    last_transaction_time: lastTransactionTime(row),
    ...chainFacts(row),
    cancelled_at: cancelledAt(row),
  };
  return JSON.stringify(extra);
}

/** POST /api/demo-payments/create */
export function toDemoPayment(row: PaymentRow): TDemoPayment {
  const chain = chainOf(row.pay_currency);
  return {
    paymentId: row.provider_payment_id,
    status: row.status,
    amount: microToNumber(row.price_amount),
    payAmount: microToNumber(row.pay_amount),
    payCurrency: row.pay_currency,
    payAddress: row.pay_address,
    credited_amount: microToNumber(row.credited_amount),
    timedout_at: iso(row.window_end),
    extra: paymentExtra(row),
    meta_data: { token: { iconUrl: TOKEN.iconUrl, symbol: TOKEN.symbol, name: TOKEN.name }, chain: { iconUrl: chain.iconUrl, name: chain.name } },
  };
}

/**
 * POST /api/payments/create (the first flow). `amount` is what to send (the crypto amount; equal
 * to the USD price at 1 USDT = 1 USD unless the gateway adds fees), `price_amount` the USD asked.
 */
export function toCreatedPayment(row: PaymentRow) {
  return {
    payment_id: row.provider_payment_id,
    payAddress: row.pay_address,
    payCurrency: row.pay_currency as TPayCurrency,
    amount: microToNumber(row.pay_amount),
    price_amount: microToNumber(row.price_amount),
    status: row.status,
    timedout_at: iso(row.window_end),
  };
}

/** POST /api/(demo-)payments/status */
export function toStatusData(row: PaymentRow) {
  return {
    payment_id: row.provider_payment_id,
    status: row.status,
    amount: microToNumber(row.price_amount),
    pay_amount: microToNumber(row.pay_amount),
    pay_currency: row.pay_currency,
    credited_amount: microToNumber(row.credited_amount),
    timedout_at: iso(row.window_end),
    ...confirmationFields(row),
    extra: paymentExtra(row),
  };
}

/**
 * A pending-list card. It carries the address and the extra so the browser can reopen the
 * payment's panel (address, QR, amount, time left) after a reload or a trip to a wallet app.
 */
export function toPending(
  row: PaymentRow,
): TPendingPayment & { pay_currency: string; pay_amount: number; pay_address: string; timedout_at: string | null; extra: string } {
  return {
    id: String(row.id),
    payment_id: row.provider_payment_id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    amount: microToNumber(row.price_amount),
    pay_amount: microToNumber(row.pay_amount),
    pay_currency: row.pay_currency,
    pay_address: row.pay_address,
    credited_amount: microToNumber(row.credited_amount),
    timedout_at: iso(row.window_end),
    ...confirmationFields(row),
    extra: paymentExtra(row),
  };
}

/** The history record's extra (spec section 3, History record). */
export function historyExtra(row: PaymentRow): string {
  const chain = chainOf(row.pay_currency);
  return JSON.stringify({
    amount_received: microToNumber(row.actually_paid),
    expected_amount: microToNumber(row.pay_amount),
    credited_amount: microToNumber(row.credited_amount),
    pay_currency: TOKEN.symbol,
    network: chain.name,
    status: row.status,
    status_description: statusDescription(row.status),
    wallet_address: row.pay_address,
    last_transaction_hash: row.tx_hash,
    ...chainFacts(row),
    created_at: iso(row.created_at),
    expires_at: iso(row.window_end),
    cancelled_at: cancelledAt(row),
  });
}
