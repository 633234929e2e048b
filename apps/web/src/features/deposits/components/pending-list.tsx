import { formatDateTime } from '@app/core/format';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import type { PendingPayment } from '../api/payments-api';
import { PaymentAmount } from '../../../components/payment-status';
import { StatusBadge } from '../../../components/status-badge';
import { paymentStatusKey } from '../../../lib/payment-status';
import { parseExtra } from './payment-extra';

/** A pending payment's card names it and its date; tapping it reopens its panel, unless the panel above already is this payment's. */
export function OpenPaymentButton({ payment, shown, onOpen }: { payment: PendingPayment; shown: boolean; onOpen: () => void }) {
  return (
    <button
      type="button"
      className="min-w-0 flex-1 basis-44 rounded-lg text-left"
      aria-current={shown ? 'true' : undefined}
      onClick={onOpen}
      data-testid="open-payment"
    >
      <span className="block truncate text-sm font-semibold text-white">{`Payment #${payment.payment_id}`}</span>
      <span className="block text-xs text-slate-400">{formatDateTime(payment.createdAt)}</span>
      <span className="mt-0.5 block text-xs font-semibold text-brand-300">{shown ? 'Shown above' : 'Show address and QR'}</span>
    </button>
  );
}

/** 'Pending Payments': one card per open payment, each with its own refresh; tapping a card reopens its panel. */
export function PendingList({
  items,
  loading,
  error,
  onRefresh,
  onOpen,
  activeId,
}: {
  items: PendingPayment[] | undefined;
  loading: boolean;
  error: unknown;
  onRefresh: (paymentId: string) => Promise<void>;
  /** Reopens the payment's panel (address, QR, amount, time left). */
  onOpen: (p: PendingPayment) => void;
  activeId: string | null;
}) {
  const [busy, setBusy] = useState<string | null>(null);
  return (
    <section className="card">
      <h2 className="mb-3 text-base font-semibold text-white">Pending Payments</h2>
      {loading ? (
        <div className="py-4 text-center">
          <Spinner label="Loading..." />
        </div>
      ) : error ? (
        <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-300">
          {errorMessage(error, 'Failed to fetch pending payments')}
        </p>
      ) : !items?.length ? (
        <p className="py-4 text-center text-sm text-slate-400">No pending payments found</p>
      ) : (
        <ul className="space-y-2">
          {items.map((p) => {
            const extra = parseExtra(p.extra, p.pay_amount ?? p.amount);
            const key = paymentStatusKey(p.status, extra);
            return (
              <li
                key={p.payment_id}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-xl border border-white/5 bg-surface-900/70 p-3"
              >
                <OpenPaymentButton payment={p} shown={activeId === p.payment_id} onOpen={() => onOpen(p)} />
                <div className="ml-auto flex shrink-0 items-center gap-1">
                  <div className="whitespace-nowrap text-right">
                    {/* A USDT payment: what to send, or what arrived of it (the payment status table). */}
                    <p className="text-sm">
                      <PaymentAmount
                        statusKey={key}
                        received={extra.amount_received}
                        asked={p.pay_amount ?? p.amount}
                        credited={extra.credited_amount}
                        currency="USDT"
                      />
                    </p>
                    <StatusBadge kind="payment" status={key} />
                  </div>
                  <button
                    type="button"
                    title="Refresh payment status"
                    aria-label="Refresh payment status"
                    disabled={busy === p.payment_id}
                    onClick={async () => {
                      setBusy(p.payment_id);
                      await onRefresh(p.payment_id);
                      setBusy(null);
                    }}
                    className="-mr-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-slate-400 hover:bg-white/5 hover:text-white disabled:opacity-50"
                  >
                    <RefreshCw className={`h-4 w-4 ${busy === p.payment_id ? 'animate-spin' : ''}`} aria-hidden />
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
