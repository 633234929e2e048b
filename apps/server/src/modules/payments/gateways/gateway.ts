import type { TPayCurrency } from '@app/core';
import type { PaymentStatus } from '../status';
import type { PaymentProvider } from '../table';

export interface CreatePaymentInput {
  /** our reference, echoed back by the gateway in reports */
  orderId: string;
  /** the USD amount, micro-units */
  priceAmountUsd: bigint;
  payCurrency: TPayCurrency;
  ipnCallbackUrl: string;
  description?: string;
  /** the paying user (the chain gateway answers the user's own permanent address) */
  userId?: bigint;
}

export interface CreatedPayment {
  providerPaymentId: string;
  payAddress: string;
  /** crypto to send, micro-units */
  payAmount: bigint;
  status: PaymentStatus;
  /** when the payment window closes (null when the gateway does not say) */
  validUntil: Date | null;
  /** gateway facts to keep with the payment (the chain gateway's network and confirmation depth) */
  extra?: Record<string, unknown>;
}

/** A gateway's view of one payment, normalised: ids as strings, amounts in micro-units. */
export interface PaymentReport {
  providerPaymentId: string;
  status: PaymentStatus;
  /** crypto received so far, micro-units (rounded down) */
  actuallyPaid: bigint;
  payAmount: bigint | null;
  priceAmount: bigint | null;
  payCurrency: string | null;
  txHash: string | null;
  confirmations: number | null;
  parentPaymentId: string | null;
  orderId: string | null;
  payAddress: string | null;
}

export interface PaymentGateway {
  readonly provider: PaymentProvider;
  createPayment(input: CreatePaymentInput): Promise<CreatedPayment>;
  getPayment(providerPaymentId: string, opts?: { timeoutMs?: number }): Promise<PaymentReport>;
  /** lowercase pay-currency codes the gateway accepts */
  listCurrencies(): Promise<string[]>;
  /** the smallest USD amount the gateway accepts for this currency, if it says */
  minAmountUsd?(payCurrency: TPayCurrency): Promise<bigint | null>;
}

/** A gateway call failed: the provider refused (code from its error envelope) or did not answer. */
export class GatewayError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
