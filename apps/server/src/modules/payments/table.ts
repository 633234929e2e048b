import type { ColumnType, Generated } from 'kysely';
import type { Id, Micro, MicroDefault, Timestamp } from '../../db/types';
import type { PaymentStatus } from './status';

export type PaymentProvider = 'sandbox' | 'nowpayments' | 'chain';
export type PaymentKind = 'deposit' | 'demo';
type Json = ColumnType<Record<string, unknown>, string | undefined, string>;

export interface PaymentsTable {
  id: Id;
  user_id: bigint;
  provider: PaymentProvider;
  provider_payment_id: string;
  order_id: string | null;
  kind: PaymentKind;
  pay_currency: string;
  /** the USD amount the user asked to deposit (micro) */
  price_amount: Micro;
  /** the crypto amount to send (micro USDT) */
  pay_amount: Micro;
  pay_address: string;
  window_end: Timestamp;
  status: ColumnType<PaymentStatus, PaymentStatus | undefined, PaymentStatus>;
  actually_paid: MicroDefault;
  confirmations: Generated<number>;
  tx_hash: string | null;
  extra: Json;
  credited_amount: MicroDefault;
  parent_payment_id: string | null;
  needs_review: Generated<boolean>;
  review_reason: string | null;
  last_checked_at: Timestamp | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PaymentIpnEventsTable {
  id: Id;
  provider: string;
  provider_payment_id: string;
  payment_status: string;
  body_sha256: string;
  body: Json;
  received_at: Generated<Date>;
}

export interface SandboxChainPaymentsTable {
  id: Id;
  order_id: string;
  pay_currency: string;
  pay_address: string;
  price_amount: Micro;
  pay_amount: Micro;
  valid_until: Timestamp;
  received: MicroDefault;
  tx_hash: string | null;
  last_transfer_at: Timestamp | null;
  confirmed_at: Timestamp | null;
  settled_at: Timestamp | null;
  created_at: Generated<Date>;
}

/** A step of a sandbox transfer that is due at a time (migration 0085); processed_at once applied. */
export interface SandboxChainEventsTable {
  id: Id;
  chain_payment_id: bigint;
  kind: 'confirm' | 'settle';
  due_at: Timestamp;
  processed_at: Timestamp | null;
  created_at: Generated<Date>;
}

declare module '../../db/types' {
  interface Database {
    payments: PaymentsTable;
    payment_ipn_events: PaymentIpnEventsTable;
    sandbox_chain_payments: SandboxChainPaymentsTable;
    sandbox_chain_events: SandboxChainEventsTable;
  }
}
