import type { TCurrencyOption, TDemoPayment, TPendingPayment } from '@app/core';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface StatusData {
  payment_id: string;
  status: string;
  amount: number;
  pay_amount: number;
  pay_currency: string;
  extra: string | null;
  timedout_at?: string | null;
}
export type PendingPayment = TPendingPayment & { pay_currency?: string; pay_amount?: number; pay_address?: string; timedout_at?: string | null; extra?: string | null };

/** A pending payment worth reopening on arrival: money already on its way, or still waiting inside its window. */
export function reopenable(p: PendingPayment, now = Date.now()): boolean {
  if (!p.pay_address) return false;
  if (p.status === 'waiting') return !p.timedout_at || Date.parse(p.timedout_at) > now;
  return ['confirming', 'confirmed', 'sending'].includes(p.status);
}

/** The demo-deposit setup: no refetch on focus, one retry, fresh for 5 minutes (spec section 9). */
const demo = { refetchOnWindowFocus: false, retry: 1, staleTime: 5 * 60_000 } as const;

export const currenciesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.currencies, queryFn: async () => (await api.get<TCurrencyOption[]>('/api/demo-payments/currencies')).data ?? [], ...demo });

export const demoPendingQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.demoPendingPayments, queryFn: async () => (await api.get<PendingPayment[]>('/api/demo-payments/pending')).data ?? [], ...demo, staleTime: 0 });

export const pendingQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.pendingPayments, queryFn: async () => (await api.get<PendingPayment[]>('/api/payments/pending')).data ?? [], staleTime: 0 });

export const paymentsConfigQueryOptions = () =>
  queryOptions({ queryKey: ['payments-config'], queryFn: async () => (await api.get<{ gateway: string; sandbox: boolean }>('/api/payments/config')).data!, staleTime: Infinity });

export const createDemoPayment = (body: { amount: number; currency: string }) => api.post<TDemoPayment>('/api/demo-payments/create', body);
export const demoPaymentStatus = (paymentId: string) => api.post<StatusData>('/api/demo-payments/status', { payment_id: paymentId });
export const cancelDemoPayment = (paymentId: string) => api.post('/api/demo-payments/cancel', { payment_id: paymentId });
export const simulatePayment = (paymentId: string, amount: number) => api.post<StatusData>(`/api/sandbox/payments/${encodeURIComponent(paymentId)}/pay`, { amount });

export const createPayment = (body: { amount: number; currency: string }) =>
  api.post<{ payment_id: string; payAddress: string; payCurrency: string; amount: number; timedout_at: string | null; status: string }>('/api/payments/create', body);
export const paymentStatus = (paymentId: string) => api.post<StatusData>('/api/payments/status', { payment_id: paymentId });
