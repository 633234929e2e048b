import { z } from 'zod';
import { ZCreateDemoPaymentRequest, ZCreatePaymentRequest, ZPaymentIdRequest } from '../schemas/money-ops';
import { ZSandboxPayRequest } from '../schemas/payments';
import { defineContract, jsonText, ZId, ZIsoTime, ZMoney } from './define';
import { ZPaymentStatusValue } from '../statuses';

const tag = 'payments';

/**
 * The spec's "Payment extra": sent as JSON text (the spec's wire format), its fields defined here so
 * the server builds it typed and the tests' answer check parses the text against this shape. The
 * chain gateway's fields (custody.md section 2) are absent for the hosted gateways.
 */
export const ZPaymentExtra = z.strictObject({
  amount_received: z.number(),
  expected_amount: z.number(),
  /** USD credited to the deposit balance for this payment (issue 47: what every screen shows as credited; the server always sends it) */
  credited_amount: ZMoney.optional(),
  pay_currency: z.string(),
  status_description: z.string().nullable(),
  confirmations_received: z.number().int().nonnegative(),
  last_transaction_hash: z.string().nullable(),
  last_transaction_time: ZIsoTime.nullable(),
  /** set when the user cancelled the payment (kept as `expired`: the screens call it cancelled) */
  cancelled_at: ZIsoTime.nullable(),
  network_code: z.string().nullable().optional(),
  required_confirmations: z.number().int().nullable().optional(),
  explorer_url: z.string().nullable().optional(),
  /** why a chain transfer was recorded and not credited (under the minimum) */
  not_credited: z.string().optional(),
});
export type TPaymentExtra = z.infer<typeof ZPaymentExtra>;
const ZPaymentExtraText = jsonText(ZPaymentExtra);

export const ZPendingPayment = z.object({
  id: ZId,
  payment_id: z.string(),
  status: ZPaymentStatusValue,
  createdAt: ZIsoTime,
  amount: ZMoney,
  pay_amount: ZMoney,
  pay_currency: z.string(),
  /** with the extra, lets the browser reopen the payment's panel after a reload */
  pay_address: z.string(),
  /** USD credited so far (the server always sends it) */
  credited_amount: ZMoney.optional(),
  timedout_at: ZIsoTime.nullable(),
  /** confirmations of the payment's latest transfer (0 until one is seen), as the payment panel counts them */
  confirmations: z.number().int().nonnegative(),
  /** what a transfer needs on its network (the chain gateway); null where the gateway does not say */
  required_confirmations: z.number().int().nonnegative().nullable(),
  extra: ZPaymentExtraText,
});

export const ZPaymentStatus = z.object({
  payment_id: z.string(),
  status: ZPaymentStatusValue,
  amount: ZMoney,
  pay_amount: ZMoney,
  pay_currency: z.string(),
  credited_amount: ZMoney,
  timedout_at: ZIsoTime.nullable(),
  /** confirmations of the payment's latest transfer (0 until one is seen), as the payment panel counts them */
  confirmations: z.number().int().nonnegative(),
  /** what a transfer needs on its network (the chain gateway); null where the gateway does not say */
  required_confirmations: z.number().int().nonnegative().nullable(),
  extra: ZPaymentExtraText,
});

export const ZCreatedPayment = z.object({
  payment_id: z.string(),
  payAddress: z.string(),
  payCurrency: z.string(),
  amount: ZMoney,
  price_amount: ZMoney,
  status: ZPaymentStatusValue,
  timedout_at: ZIsoTime.nullable(),
});

/** The user's permanent addresses of the chain gateway, for the networks that are configured. */
export const ZDepositAddresses = z.object({ usdtbsc: z.string().optional(), usdtmatic: z.string().optional(), usdttrc20: z.string().optional() });

export const ZCurrencyOption = z.object({
  name: z.string(),
  symbol: z.string(),
  iconUrl: z.string(),
  chain: z.object({ name: z.string(), shortName: z.string(), symbol: z.string(), iconUrl: z.string() }),
});

export const ZDemoPayment = z.object({
  paymentId: z.string(),
  status: ZPaymentStatusValue,
  amount: ZMoney,
  payAmount: ZMoney,
  payCurrency: z.string(),
  payAddress: z.string(),
  /** USD credited so far (the server always sends it) */
  credited_amount: ZMoney.optional(),
  timedout_at: ZIsoTime.nullable(),
  extra: ZPaymentExtraText.nullable(),
  meta_data: z.object({
    token: z.object({ iconUrl: z.string(), symbol: z.string(), name: z.string() }),
    chain: z.object({ iconUrl: z.string(), name: z.string() }),
  }),
});

/**
 * The calls both deposit screens share: /payments/* (the first flow) and /demo-payments/* (the demo
 * screen) answer the same, so they are one definition under two prefixes.
 */
const depositCalls = <P extends '/payments' | '/demo-payments'>(prefix: P) => ({
  pending: defineContract({
    method: 'GET',
    path: `${prefix}/pending`,
    auth: 'user',
    tag,
    summary: 'My payments still waiting for funds',
    data: z.array(ZPendingPayment),
  }),
  status: defineContract({
    method: 'POST',
    path: `${prefix}/status`,
    auth: 'user',
    tag,
    summary: 'Asks the gateway for the payment and credits what arrived',
    body: ZPaymentIdRequest,
    data: ZPaymentStatus,
    errors: ['VALIDATION', 'NOT_FOUND', 'PROVIDER_UNAVAILABLE'],
  }),
  cancel: defineContract({
    method: 'POST',
    path: `${prefix}/cancel`,
    auth: 'user',
    tag,
    summary: 'Cancels a payment that has received nothing',
    body: ZPaymentIdRequest,
    data: null,
    errors: ['VALIDATION', 'NOT_FOUND', 'BAD_REQUEST'],
  }),
});

export const payments = {
  config: defineContract({
    method: 'GET',
    path: '/payments/config',
    auth: 'user',
    tag,
    summary: 'The active gateway',
    data: z.object({ gateway: z.string(), sandbox: z.boolean() }),
  }),
  create: defineContract({
    method: 'POST',
    path: '/payments/create',
    auth: 'user',
    tag,
    summary: 'Starts a deposit (first flow)',
    body: ZCreatePaymentRequest,
    data: ZCreatedPayment,
    errors: ['VALIDATION', 'RATE_LIMITED', 'PROVIDER_UNAVAILABLE'],
  }),
  ...depositCalls('/payments'),
  addresses: defineContract({
    method: 'GET',
    path: '/payments/addresses',
    auth: 'user',
    tag,
    summary: 'Chain gateway only: my permanent deposit addresses, per configured network (assigned on first use)',
    data: ZDepositAddresses,
  }),
  ipn: defineContract({
    method: 'POST',
    path: '/payments/ipn',
    auth: 'public',
    tag,
    summary: 'NOWPayments IPN (signed raw body)',
    data: z.object({ outcome: z.string() }),
  }),
  sandboxPay: defineContract({
    method: 'POST',
    path: '/sandbox/payments/:payment_id/pay',
    auth: 'user',
    tag,
    summary: 'Sandbox gateway only: simulates the transfer',
    params: z.object({ payment_id: z.string().max(64) }),
    body: ZSandboxPayRequest,
    data: ZPaymentStatus,
    errors: ['VALIDATION', 'NOT_FOUND', 'BAD_REQUEST'],
  }),
};

export const demoPayments = {
  currencies: defineContract({
    method: 'GET',
    path: '/demo-payments/currencies',
    auth: 'user',
    tag,
    summary: 'The deposit chains',
    data: z.array(ZCurrencyOption),
  }),
  create: defineContract({
    method: 'POST',
    path: '/demo-payments/create',
    auth: 'user',
    tag,
    summary: 'Starts a deposit (demo screen)',
    body: ZCreateDemoPaymentRequest,
    data: ZDemoPayment,
    errors: ['VALIDATION', 'RATE_LIMITED', 'PROVIDER_UNAVAILABLE'],
  }),
  ...depositCalls('/demo-payments'),
};

export type TPendingPayment = z.output<typeof ZPendingPayment>;
export type TPaymentStatus = z.output<typeof ZPaymentStatus>;
export type TCurrencyOption = z.output<typeof ZCurrencyOption>;
export type TDemoPayment = z.output<typeof ZDemoPayment>;
export type TDepositAddresses = z.output<typeof ZDepositAddresses>;
