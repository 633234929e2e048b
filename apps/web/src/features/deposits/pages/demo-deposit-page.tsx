import type { TCurrencyOption, TDemoPayment } from '@app/core/contracts';
import { DEMO_DEPOSIT_DEFAULT_USD, DEMO_DEPOSIT_MIN_USD, DEMO_DEPOSIT_STEP_USD, PAYMENT_POLL_SECONDS } from '@app/core/constants';
import { ZCreateDemoPaymentRequest } from '@app/core/schemas/money-ops';
import { MICRO, microToDecimal, toMicro } from '@app/core/money';
import { formNumber } from '@app/core/schemas/fields';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { userInfoKey } from '../../../lib/shared-queries';
import {
  cancelDemoPayment,
  createDemoPayment,
  currenciesQueryOptions,
  demoPaymentStatus,
  demoPendingKey,
  demoPendingQueryOptions,
  isCancellable,
  isPendingPayment,
  paymentsConfigQueryOptions,
  reopenable,
  simulatePayment,
  type PendingPayment,
} from '../api/payments-api';
import { CancelPaymentModal } from '../components/cancel-modal';
import { ChainSelect } from '../components/chain-select';
import { networkName, parseExtra } from '../components/payment-extra';
import { PaymentPanel } from '../components/payment-panel';
import { PendingList } from '../components/pending-list';
import { FINAL_PAYMENT_STATUSES as FINAL, useStatusOutcome } from '../components/use-status-outcome';

/** Rebuilds the panel's payment from the server's pending card (reload, or back from a wallet app). */
function fromPending(p: PendingPayment, options: readonly TCurrencyOption[]): TDemoPayment {
  const opt = options.find((o) => o.name === p.pay_currency);
  return {
    paymentId: p.payment_id,
    status: p.status,
    amount: p.amount,
    payAmount: p.pay_amount ?? p.amount,
    payCurrency: p.pay_currency ?? 'usdtbsc',
    payAddress: p.pay_address ?? '',
    timedout_at: p.timedout_at ?? null,
    extra: p.extra ?? null,
    meta_data: {
      token: { iconUrl: opt?.iconUrl ?? '/icons/usdt.svg', symbol: opt?.symbol ?? 'USDT', name: 'Tether USD' },
      chain: { iconUrl: opt?.chain.iconUrl ?? '', name: opt?.chain.name ?? networkName(p.pay_currency ?? '') },
    },
  };
}

const ZForm = z.object({ amount: formNumber(ZCreateDemoPaymentRequest.shape.amount), currency: ZCreateDemoPaymentRequest.shape.currency });

export default function DemoDepositPage() {
  const qc = useQueryClient();
  const currencies = useQuery(currenciesQueryOptions());
  const pending = useQuery(demoPendingQueryOptions());
  const config = useQuery(paymentsConfigQueryOptions());
  const [currency, setCurrency] = useState('');
  const [amount, setAmount] = useState(String(DEMO_DEPOSIT_DEFAULT_USD));
  const [errors, setErrors] = useState<{ amount?: string; currency?: string }>({});
  const [submitting, setSubmitting] = useState(false);
  const [payment, setPayment] = useState<TDemoPayment | null>(null);
  const [status, setStatus] = useState('waiting');
  const [extra, setExtra] = useState<string | null>(null);
  const [startedAt, setStartedAt] = useState(0);
  const [checking, setChecking] = useState(false);
  const [simulating, setSimulating] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const outcome = useStatusOutcome();
  const statusRef = useRef(status);
  statusRef.current = status;

  // Validated on every change (spec section 5, Demo deposit).
  const validate = (next: { amount: string; currency: string }) => {
    const r = ZForm.safeParse(next);
    const e: { amount?: string; currency?: string } = {};
    if (!r.success) for (const issue of r.error.issues) e[issue.path[0] as 'amount' | 'currency'] ??= issue.message;
    setErrors(e);
    return r;
  };

  const refreshPayment = async (paymentId: string, opts: { quiet?: boolean } = {}) => {
    try {
      const res = await demoPaymentStatus(paymentId);
      const data = res.data;
      if (payment && data.payment_id === payment.paymentId) {
        const before = statusRef.current;
        setStatus(data.status);
        setExtra(data.extra);
        outcome.onStatus(data.payment_id, before, data.status, data.extra, payment.payAmount);
      }
      if (!opts.quiet) toast.success('Payment status refreshed!');
      void qc.invalidateQueries({ queryKey: demoPendingKey });
      void qc.invalidateQueries({ queryKey: userInfoKey });
    } catch (err) {
      if (!opts.quiet) toast.error(errorMessage(err, 'Failed to refresh payment status'));
    }
  };

  // Re-check every 30 s while waiting; a few seconds apart while the chain confirms.
  useEffect(() => {
    if (!payment || FINAL.has(status)) return;
    const every = status === 'waiting' ? PAYMENT_POLL_SECONDS * 1000 : 2_500;
    const t = setInterval(() => void refreshPayment(payment.paymentId, { quiet: true }), every);
    return () => clearInterval(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the interval follows the payment and its status
  }, [payment, status]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const r = validate({ amount, currency });
    if (!r.success) return;
    setSubmitting(true);
    try {
      const res = await createDemoPayment({ amount: r.data.amount, currency: r.data.currency });
      if (!res.success || !res.data) throw new Error(res.message);
      setPayment(res.data);
      setStatus(res.data.status);
      setExtra(res.data.extra);
      setStartedAt(Date.now());
      toast.success('Payment created successfully');
      void qc.invalidateQueries({ queryKey: demoPendingKey });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to create payment'));
    } finally {
      setSubmitting(false);
    }
  };

  const cancel = async () => {
    if (!payment) return;
    setCancelling(true);
    try {
      const res = await cancelDemoPayment(payment.paymentId);
      toast.success(res.message || 'Payment cancelled successfully');
      setPayment(null);
      setCancelOpen(false);
      void qc.invalidateQueries({ queryKey: demoPendingKey });
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to cancel payment'));
      // A refusal ('Payment can no longer be cancelled': money arrived meanwhile) closes the dialog
      // and shows the payment as it is now. A network or server failure keeps it open to try again.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
        setCancelOpen(false);
        void refreshPayment(payment.paymentId, { quiet: true });
      }
    } finally {
      setCancelling(false);
    }
  };

  const simulate = async (value: number) => {
    if (!payment) return;
    setSimulating(true);
    try {
      await simulatePayment(payment.paymentId, value);
      toast.info('Transfer sent on the sandbox chain');
      setTimeout(() => void refreshPayment(payment.paymentId, { quiet: true }), 800);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to simulate payment'));
    } finally {
      setSimulating(false);
    }
  };

  const options = useMemo(() => currencies.data ?? [], [currencies.data]);
  const locked = payment !== null;
  const cancellable = payment !== null && isCancellable(status, parseExtra(extra, payment.payAmount).amount_received);
  // 'Pending Payments' lists what still waits for money or confirmations; a closed payment
  // (partially paid, finished, expired, failed) is in /transaction instead.
  const pendingItems = useMemo(() => pending.data?.filter(isPendingPayment), [pending.data]);

  const open = (p: PendingPayment) => {
    setPayment(fromPending(p, options));
    setStatus(p.status);
    setExtra(p.extra ?? null);
    setStartedAt(Date.parse(p.createdAt));
    if (p.pay_currency) setCurrency(p.pay_currency);
    setAmount(String(p.amount));
  };

  // The active payment lives on the server: on arrival, reopen the newest one still in play.
  const reopened = useRef(false);
  useEffect(() => {
    if (reopened.current || !pending.data || payment) return;
    reopened.current = true;
    const active = pending.data.find((p) => reopenable(p));
    if (active) open(active);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the list first arrives
  }, [pending.data]);

  return (
    <div className="space-y-4">
      <PageHeader title="Create Payment" subtitle="Enter amount to create payment" />
      <form onSubmit={submit} noValidate className="card space-y-4">
        <h2 className="text-base font-semibold text-white">Deposit Usdt</h2>
        {currencies.isPending ? (
          <p className="text-sm text-slate-400">Loading currencies...</p>
        ) : currencies.isError ? (
          <p role="alert" className="text-sm text-red-400">
            {errorMessage(currencies.error, 'Failed to fetch currencies')}
          </p>
        ) : (
          <ChainSelect
            options={options}
            value={currency}
            disabled={locked}
            error={errors.currency}
            onChange={(v) => {
              setCurrency(v);
              validate({ amount, currency: v });
            }}
          />
        )}
        <div>
          <label htmlFor="deposit-amount" className="label">
            Enter Amount
          </label>
          <input
            id="deposit-amount"
            type="number"
            inputMode="decimal"
            className="input"
            placeholder="50.00"
            min={DEMO_DEPOSIT_MIN_USD}
            step={DEMO_DEPOSIT_STEP_USD}
            value={amount}
            disabled={locked}
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? 'deposit-amount-msg' : 'deposit-amount-hint'}
            onChange={(e) => {
              setAmount(e.target.value);
              validate({ amount: e.target.value, currency: currency || 'usdtbsc' });
            }}
          />
          {errors.amount ? (
            <p id="deposit-amount-msg" className="field-error">
              {errors.amount}
            </p>
          ) : (
            // The spec's note, where it is true: the form's minimum. The panel says "Send exactly" instead.
            <p id="deposit-amount-hint" className="mt-1 text-xs text-slate-400">{`Minimum deposit amount: ${DEMO_DEPOSIT_MIN_USD} USDT`}</p>
          )}
        </div>
        <Button type="submit" className="w-full" disabled={locked || submitting}>
          {submitting ? 'Loading...' : 'Deposit'}
        </Button>
      </form>

      {payment ? (
        <PaymentPanel
          payment={payment}
          status={status}
          extra={extra}
          startedAt={startedAt}
          onCancel={() => setCancelOpen(true)}
          onCheck={async () => {
            setChecking(true);
            await refreshPayment(payment.paymentId);
            setChecking(false);
          }}
          checking={checking}
          sandbox={Boolean(config.data?.sandbox)}
          onSimulate={(v) => void simulate(v)}
          simulating={simulating}
          onNew={() => {
            outcome.stay();
            setPayment(null);
            setStatus('waiting');
            setExtra(null);
          }}
          onPayRest={(missing) => {
            // A new payment for the rest: rounded up to the cent, never under the minimum.
            outcome.stay();
            setPayment(null);
            const micro = toMicro(missing) ?? 0n;
            const up = ((micro + 9_999n) / 10_000n) * 10_000n;
            const min = BigInt(DEMO_DEPOSIT_MIN_USD) * MICRO;
            const next = microToDecimal(up > min ? up : min);
            setAmount(next);
            validate({ amount: next, currency });
          }}
        />
      ) : null}

      <PendingList
        items={pendingItems}
        loading={pending.isPending}
        error={pending.error}
        onRefresh={(id) => refreshPayment(id)}
        onOpen={open}
        activeId={payment?.paymentId ?? null}
      />

      {payment ? (
        <CancelPaymentModal
          open={cancelOpen && cancellable}
          onClose={() => setCancelOpen(false)}
          onConfirm={() => void cancel()}
          busy={cancelling}
          paymentId={payment.paymentId}
          amount={payment.payAmount}
          network={networkName(payment.payCurrency)}
        />
      ) : null}
    </div>
  );
}
