import { z } from 'zod';

/**
 * Every status a record can be in, once: the database's check constraints hold the same lists
 * (db/schema.sql), the server's table types and the API's contracts are written from these, so a
 * status the browser does not know fails the response check instead of reaching a screen.
 */

/** A deposit: NOWPayments' own statuses (nowpayments.md §3); `cancelled` is not one (the browser derives it). */
export const PAYMENT_STATUSES = ['waiting', 'confirming', 'confirmed', 'sending', 'partially_paid', 'finished', 'failed', 'refunded', 'expired'] as const;
/** Still waiting for money or confirmations; every other payment status is final (nothing more is credited by the gateway's report). */
export const OPEN_PAYMENT_STATUSES = ['waiting', 'confirming', 'confirmed', 'sending'] as const satisfies readonly (typeof PAYMENT_STATUSES)[number][];
export const FINAL_PAYMENT_STATUSES = [
  'partially_paid',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const satisfies readonly (typeof PAYMENT_STATUSES)[number][];
/**
 * A withdrawal: `pending` until an admin acts; with the signer (PAYOUTS=signer, custody.md section 6)
 * `approved` (waiting for the signer), `sent` (broadcast, waiting for its block to be final) and
 * then `completed`; a manual payout goes from `pending` to `completed` with the admin's hash.
 */
export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'sent', 'completed', 'rejected'] as const;
export const STAKE_STATUSES = ['active', 'completed'] as const;
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export const USER_STATUSES = ['inactive', 'active', 'blocked'] as const;
/** A transfer between users is done when it is written. */
export const TRANSFER_STATUSES = ['completed'] as const;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export type StakeStatus = (typeof STAKE_STATUSES)[number];
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type UserStatus = (typeof USER_STATUSES)[number];

export const ZPaymentStatusValue = z.enum(PAYMENT_STATUSES);
export const ZWithdrawalStatus = z.enum(WITHDRAWAL_STATUSES);
export const ZStakeStatus = z.enum(STAKE_STATUSES);
export const ZTicketStatus = z.enum(TICKET_STATUSES);
export const ZUserStatus = z.enum(USER_STATUSES);
/** A row of the combined history (deposits, withdrawals or transfers, by the query's type). */
export const ZHistoryStatus = z.union([ZPaymentStatusValue, ZWithdrawalStatus, z.enum(TRANSFER_STATUSES)]);
