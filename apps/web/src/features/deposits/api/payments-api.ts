import { demoPayments, payments } from '@app/core/contracts/payments';
import type { TPayCurrency } from '@app/core';
import type { TPaymentStatus, TPendingPayment } from '@app/core/contracts/payments';
import { FINAL_PAYMENT_STATUSES } from '@app/core/statuses';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call';
import { contractQuery, keyOfAll } from '../../../lib/query-keys';

export { demoPendingQueryOptions, reopenable } from '../../../lib/open-payments';

export type StatusData = TPaymentStatus;
export type PendingPayment = TPendingPayment;
/** Statuses that close a payment (server.md section 6): nothing more is waited for, so it is not pending. */
export const CLOSED_PAYMENT_STATUSES: ReadonlySet<string> = new Set(FINAL_PAYMENT_STATUSES);

/** A payment still waiting for money or confirmations: what the 'Pending Payments' list shows. */
export const isPendingPayment = (p: { status: string }): boolean => !CLOSED_PAYMENT_STATUSES.has(p.status);

/** The server cancels only a payment still waiting with nothing received: Cancel is offered only then. */
export const isCancellable = (status: string, amountReceived: number): boolean => status === 'waiting' && !(amountReceived > 0);

/** The demo-deposit setup: no refetch on focus, one retry, fresh for 5 minutes (spec section 9). */
const demo = { refetchOnWindowFocus: false, retry: 1, staleTime: 5 * 60_000 } as const;

export const currenciesQueryOptions = () => queryOptions({ ...contractQuery(demoPayments.currencies), ...demo });

export const pendingQueryOptions = () => queryOptions({ ...contractQuery(payments.pending), staleTime: 0 });

export const paymentsConfigQueryOptions = () => queryOptions({ ...contractQuery(payments.config), staleTime: Infinity });

/** Every page's open deposits, for a refresh after a change (the first flow's, the demo screen's). */
export const pendingKey = keyOfAll(payments.pending);
export const demoPendingKey = keyOfAll(demoPayments.pending);
/** POST /api/payments/status as a query: the live panel polls it. */
export const paymentStatusQuery = (paymentId: string) => contractQuery(payments.status, { body: { payment_id: paymentId } });

export const createDemoPayment = (body: { amount: number; currency: TPayCurrency }) => call(demoPayments.create, { body });
export const demoPaymentStatus = (paymentId: string) => call(demoPayments.status, { body: { payment_id: paymentId } });
export const cancelDemoPayment = (paymentId: string) => call(demoPayments.cancel, { body: { payment_id: paymentId } });
export const simulatePayment = (paymentId: string, amount: number) => call(payments.sandboxPay, { params: { payment_id: paymentId }, body: { amount } });

export const createPayment = (body: { amount: number; currency: TPayCurrency }) => call(payments.create, { body });
export const paymentStatus = (paymentId: string) => call(payments.status, { body: { payment_id: paymentId } });
