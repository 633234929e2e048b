import { CHAINS, CURRENCY, PAYMENT_WINDOW_SECONDS, QR_SIZE } from '@app/core/constants';
import { formatAmount, formatCountdown, groupAddress } from '@app/core/format';
import { formNumber } from '@app/core/schemas/fields';
import { ZCreatePaymentRequest } from '@app/core/schemas/money-ops';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, RefreshCw } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { PaymentAmount } from '../../../components/payment-status';
import { StatusBadge } from '../../../components/status-badge';
import { SubmitButton } from '../../../components/ui/submit-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { paymentStatusKey } from '../../../lib/payment-status';
import { parseExtra } from '../components/payment-extra';
import {
  CLOSED_PAYMENT_STATUSES,
  createPayment,
  isPendingPayment,
  paymentsConfigQueryOptions,
  paymentStatus,
  paymentStatusQuery,
  pendingKey,
  pendingQueryOptions,
  reopenable,
  type PendingPayment,
} from '../api/payments-api';
import { OpenPaymentButton } from '../components/pending-list';
import { Confirmations, PermanentAddress } from '../components/permanent-address';
import { useCountdown } from '../components/use-countdown';

const ZForm = z.object({ amount: formNumber(ZCreatePaymentRequest.shape.amount), currency: ZCreatePaymentRequest.shape.currency });
type Created = { payment_id: string; payAddress: string; payCurrency: string; amount: number; timedout_at: string | null };

/** With the chain gateway the watcher moves the payment on by itself: its status is read every few seconds. */
const LIVE_STATUS_MS = 5_000;

function Panel({ p, startedAt, live }: { p: Created; startedAt: number; live: boolean }) {
  const left = useCountdown(p.timedout_at, startedAt);
  const status = useQuery({
    ...paymentStatusQuery(p.payment_id),
    enabled: live,
    refetchInterval: (q) => (q.state.data && CLOSED_PAYMENT_STATUSES.has(q.state.data.status) ? false : LIVE_STATUS_MS),
  });
  // The pending list below reads the payment again whenever the panel sees it move, so the two never
  // disagree (a credited deposit shown as waiting in the list).
  const qc = useQueryClient();
  const seen = status.data?.status;
  useEffect(() => {
    if (seen) void qc.invalidateQueries({ queryKey: pendingKey });
  }, [seen, qc]);
  return (
    <section className="card space-y-3 text-center">
      {left > 0 ? (
        <p className="text-sm text-slate-300">
          Time left: <span className="font-mono font-semibold text-white">{formatCountdown(Math.min(left, PAYMENT_WINDOW_SECONDS))}</span>
        </p>
      ) : (
        <p className="text-sm font-semibold text-red-400">Payment window expired</p>
      )}
      <div className="mx-auto w-fit rounded-2xl bg-white p-3">
        <QRCodeSVG value={p.payAddress} size={QR_SIZE} level="H" />
      </div>
      <p className="text-sm text-slate-400">
        Send exactly <span className="text-lg font-bold text-white">{formatAmount(p.amount)} USDT</span>
      </p>
      {live && status.data ? (
        <Confirmations status={status.data.status} confirmations={status.data.confirmations} required={status.data.required_confirmations} />
      ) : null}
      <button
        type="button"
        aria-label={`Copy address ${p.payAddress}`}
        className="mx-auto inline-flex min-h-11 items-center gap-2 rounded-xl border border-white/10 bg-surface-900 px-3 py-2 text-left font-mono text-sm text-slate-100"
        onClick={() =>
          navigator.clipboard.writeText(p.payAddress).then(
            () => toast.success('Address copied!'),
            () => toast.error('Failed to copy'),
          )
        }
      >
        <span>{groupAddress(p.payAddress)}</span> <Copy className="h-3.5 w-3.5 shrink-0" aria-hidden />
      </button>
    </section>
  );
}

/** The panel's payment rebuilt from the server's pending card, so a reload or a trip to a wallet app loses nothing. */
function fromPending(p: PendingPayment): { p: Created; at: number } {
  return {
    p: {
      payment_id: p.payment_id,
      payAddress: p.pay_address ?? '',
      payCurrency: p.pay_currency ?? '',
      amount: p.pay_amount ?? p.amount,
      timedout_at: p.timedout_at ?? null,
    },
    at: Date.parse(p.createdAt),
  };
}

/** An option of the chain select: chain name, network and token, e.g. 'BSC · BEP20 · USDT' (the network's own name is 'BSC (BEP20)'). */
function chainOption(c: (typeof CHAINS)[number]): string {
  const network = /\(([^)]+)\)/.exec(c.network)?.[1] ?? c.network;
  return `${c.name} · ${network} · ${CURRENCY}`;
}

/** The first deposit flow: chain, amount, a payment panel with a 300-second countdown, and the pending list. */
export default function DepositPage() {
  const qc = useQueryClient();
  const pending = useQuery(pendingQueryOptions());
  const config = useQuery(paymentsConfigQueryOptions());
  const chainGateway = config.data?.gateway === 'chain';
  const [created, setCreated] = useState<{ p: Created; at: number } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZForm>, unknown, z.infer<typeof ZForm>>({ resolver: zodResolver(ZForm) });
  const { errors, isSubmitting } = form.formState;
  const chosen = form.watch('currency');
  // On the chain gateway a partly paid payment stays open for a top-up until its window ends (the
  // server lists it then): it stays in the list, shown as credited, as the panel shows it.
  const listed = (p: PendingPayment) => isPendingPayment(p) || (chainGateway && p.status === 'partially_paid');

  const reopened = useRef(false);
  useEffect(() => {
    if (reopened.current || !pending.data || created) return;
    reopened.current = true;
    const active = pending.data.find((p) => reopenable(p));
    if (active) setCreated(fromPending(active));
  }, [pending.data, created]);

  const onSubmit = form.handleSubmit(async (v) => {
    try {
      const res = await createPayment(v);
      setCreated({ p: res.data, at: Date.now() });
      toast.success('Payment created successfully');
      void qc.invalidateQueries({ queryKey: pendingKey });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to create payment'));
    }
  });

  const refresh = async (id: string) => {
    setBusy(id);
    try {
      await paymentStatus(id);
      toast.success('Payment status refreshed!');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to refresh payment status'));
    } finally {
      setBusy(null);
      void qc.invalidateQueries({ queryKey: pendingKey });
    }
  };

  return (
    <div className="space-y-4">
      <PageHeader title="Deposit" subtitle="Send USDT on BSC, Polygon or Tron" />
      <form onSubmit={onSubmit} noValidate className="card space-y-4">
        <div>
          <label htmlFor="dep-currency" className="label">
            Chain
          </label>
          <select id="dep-currency" className="input" disabled={created !== null} {...form.register('currency')}>
            <option value="">Select a chain</option>
            {CHAINS.map((c) => (
              <option key={c.code} value={c.code}>
                {chainOption(c)}
              </option>
            ))}
          </select>
          {errors.currency ? <p className="field-error">{errors.currency.message}</p> : null}
        </div>
        <div>
          <label htmlFor="dep-amount" className="label">
            Amount (USD)
          </label>
          <input
            id="dep-amount"
            type="number"
            step="0.01"
            min="1"
            inputMode="decimal"
            className="input"
            disabled={created !== null}
            {...form.register('amount')}
          />
          {errors.amount ? <p className="field-error">{errors.amount.message}</p> : null}
        </div>
        <SubmitButton busy={isSubmitting} busyLabel="Loading..." disabled={created !== null}>
          Deposit
        </SubmitButton>
      </form>
      {chainGateway && !created ? <PermanentAddress currency={CHAINS.find((c) => c.code === chosen)?.code ?? 'usdtbsc'} /> : null}
      {created ? <Panel p={created.p} startedAt={created.at} live={chainGateway} /> : null}
      <section className="card">
        <h2 className="mb-3 text-base font-semibold text-white">Pending payments</h2>
        {pending.isPending ? (
          <Spinner label="Loading..." />
        ) : pending.isError ? (
          <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-300">
            Failed to fetch pending payments
          </p>
        ) : !pending.data.filter(listed).length ? (
          <p className="text-sm text-slate-400">No pending payments found</p>
        ) : (
          <ul className="space-y-2">
            {pending.data.filter(listed).map((p) => (
              <li key={p.payment_id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-surface-900/70 p-3">
                <OpenPaymentButton payment={p} shown={created?.p.payment_id === p.payment_id} onOpen={() => setCreated(fromPending(p))} />
                <div className="ml-auto flex shrink-0 items-center gap-2 whitespace-nowrap">
                  {chainGateway ? (
                    <Confirmations status={p.status} confirmations={p.confirmations} required={p.required_confirmations} testId="pending-confirmations" />
                  ) : null}
                  <StatusBadge kind="payment" status={paymentStatusKey(p.status, parseExtra(p.extra, p.pay_amount))} />
                  <PaymentAmount
                    statusKey={paymentStatusKey(p.status, parseExtra(p.extra, p.pay_amount))}
                    received={parseExtra(p.extra, p.pay_amount).amount_received}
                    asked={p.pay_amount}
                    credited={parseExtra(p.extra, p.pay_amount).credited_amount}
                    currency="USDT"
                    className="text-sm"
                  />
                  <button
                    type="button"
                    title="Refresh payment status"
                    aria-label="Refresh payment status"
                    onClick={() => void refresh(p.payment_id)}
                    className="-mr-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg text-slate-400 hover:text-white"
                  >
                    <RefreshCw className={`h-4 w-4 ${busy === p.payment_id ? 'animate-spin' : ''}`} aria-hidden />
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
