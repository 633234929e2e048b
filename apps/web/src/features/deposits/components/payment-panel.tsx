import type { TDemoPayment } from '@app/core/contracts';
import { DEMO_DEPOSIT_MIN_USD, QR_SIZE } from '@app/core/constants';
import { microToDecimal, toMicro } from '@app/core/money';
import { formatAmount, formatCountdown, formatDateTime, shortenAddressShort } from '@app/core/format';
import { Copy, Info } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { isCancellable } from '../api/payments-api';
import { Icon } from './icon';
import { networkName, parseExtra } from './payment-extra';
import { PaymentStatusBadge } from './payment-status-badge';
import { useCountdown } from './use-countdown';

export function PaymentPanel({
  payment,
  status,
  extra,
  startedAt,
  onCancel,
  onCheck,
  checking,
  sandbox,
  onSimulate,
  simulating,
  onPayRest,
}: {
  payment: TDemoPayment;
  status: string;
  extra: string | null;
  startedAt: number;
  onCancel: () => void;
  onCheck: () => void;
  checking: boolean;
  sandbox: boolean;
  onSimulate: (amount: number) => void;
  simulating: boolean;
  /** Starts a new payment for what a partial payment left missing. */
  onPayRest?: (missing: string) => void;
}) {
  const left = useCountdown(payment.timedout_at, startedAt);
  const info = parseExtra(extra, payment.payAmount);
  // The window only matters while the payment waits for money: once money is seen or the payment
  // is closed, the countdown stops (an expired payment says so) and Cancel is not offered, since
  // the server refuses it.
  const waiting = status === 'waiting';
  const windowOver = status === 'expired' || (waiting && left === 0);
  const cancellable = isCancellable(status, info.amount_received);
  // Exact micro-units: 100 − 40.1 must read 59.90, not 59.900000000000006.
  const missingMicro = (toMicro(info.expected_amount) ?? 0n) - (toMicro(info.amount_received) ?? 0n);
  const missing = missingMicro > 0n ? microToDecimal(missingMicro) : null;
  const [simAmount, setSimAmount] = useState(String(payment.payAmount));
  const token = payment.meta_data.token;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(payment.payAddress);
      toast.success('Address copied!');
    } catch {
      toast.error('Failed to copy');
    }
  };
  return (
    <section className="card space-y-4" aria-label="Payment">
      {waiting || windowOver ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          {windowOver ? (
            <p className="text-sm font-semibold text-red-400">Payment window expired</p>
          ) : (
            <p className="text-sm text-slate-300">
              Payment Timer: <span className="font-mono font-semibold text-white">{formatCountdown(left)}</span>
            </p>
          )}
          <p className="text-xs text-slate-400">Expires at {formatDateTime(payment.timedout_at ?? new Date(startedAt + 300_000).toISOString())}</p>
        </div>
      ) : null}
      {windowOver ? <p className="sr-only">Expired</p> : null}

      <div className="flex justify-center">
        <div className="rounded-2xl bg-white p-3" data-testid="payment-qr">
          <QRCodeSVG
            value={payment.payAddress}
            size={QR_SIZE}
            level="H"
            imageSettings={token.iconUrl ? { src: token.iconUrl, height: 40, width: 40, excavate: true } : undefined}
          />
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <PaymentStatusBadge status={status} />
        <span className="inline-flex items-center gap-2 text-sm text-slate-300">
          <Icon src={payment.meta_data.chain.iconUrl} alt={payment.meta_data.chain.name} />
          {payment.meta_data.chain.name}
        </span>
      </div>

      <div>
        <p className="label">Deposit address</p>
        <div className="flex items-center justify-between gap-2 rounded-xl border border-white/10 bg-surface-900 p-2 pl-3">
          <span className="font-mono text-sm text-slate-100" title={payment.payAddress} data-testid="pay-address">
            {shortenAddressShort(payment.payAddress)}
          </span>
          <button
            type="button"
            onClick={() => void copy()}
            aria-label="Copy address"
            className="inline-flex min-h-11 items-center gap-1 rounded-lg bg-surface-700 px-3 text-xs font-semibold text-slate-100 hover:bg-surface-600"
          >
            <Copy className="h-3.5 w-3.5" aria-hidden /> Copy
          </button>
        </div>
      </div>

      <div className="flex items-baseline justify-between">
        <span className="text-sm text-slate-400">Amount</span>
        <span className="text-xl font-bold text-white">
          {formatAmount(payment.payAmount)} {token.symbol}
        </span>
      </div>

      {status === 'partially_paid' ? (
        <div className="rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm" data-testid="partial-box">
          <p className="font-semibold text-amber-200">Payment Completed (Partial Amount)</p>
          <dl className="mt-2 space-y-1 text-amber-100/90">
            <div className="flex justify-between">
              <dt>Amount Received</dt>
              <dd>
                {formatAmount(info.amount_received)} {info.pay_currency}
              </dd>
            </div>
            <div className="flex justify-between">
              <dt>Expected Amount</dt>
              <dd>
                {formatAmount(info.expected_amount)} {info.pay_currency}
              </dd>
            </div>
          </dl>
          {info.status_description ? <p className="mt-1 text-xs">{info.status_description}</p> : null}
          {(info.confirmations_received ?? 0) > 0 ? <p className="mt-1 text-xs">{`${info.confirmations_received} confirmations received`}</p> : null}
          {missing ? (
            <div className="mt-3 border-t border-amber-500/30 pt-3" data-testid="partial-missing">
              <p className="font-semibold text-amber-100">
                Missing: {formatAmount(Number(missing))} {info.pay_currency}
              </p>
              <p className="mt-1 text-xs text-amber-100/90">
                This payment is closed: the {formatAmount(info.amount_received)} {info.pay_currency} received is credited to your Deposit Balance. Do not send
                more to this address. To add the rest, create a new payment for the missing amount (minimum {DEMO_DEPOSIT_MIN_USD} USDT).
              </p>
              {onPayRest ? (
                <Button variant="outline" className="mt-2 w-full" onClick={() => onPayRest(missing)}>
                  Pay the missing amount
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}

      <div className={cancellable ? 'grid grid-cols-2 gap-2' : 'grid grid-cols-1'}>
        {cancellable ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button onClick={onCheck} disabled={checking}>
          {checking ? 'Loading...' : 'Check Status'}
        </Button>
      </div>

      {sandbox && status === 'waiting' ? (
        <div className="rounded-xl border border-sky-500/30 bg-sky-500/10 p-3">
          <p className="text-sm font-semibold text-sky-200">Sandbox chain</p>
          <p className="mt-0.5 text-xs text-sky-100/80">No real money moves here: simulate the transfer of any amount to finish this deposit.</p>
          <div className="mt-2 flex gap-2">
            <label htmlFor="sim-amount" className="sr-only">
              Amount to simulate
            </label>
            <input
              id="sim-amount"
              inputMode="decimal"
              className="input py-2"
              value={simAmount}
              onChange={(e) => setSimAmount(e.target.value.replace(/[^\d.]/g, ''))}
            />
            <Button variant="outline" disabled={simulating || !(Number(simAmount) > 0)} onClick={() => onSimulate(Number(simAmount))}>
              {simulating ? 'Sending...' : 'Simulate payment'}
            </Button>
          </div>
        </div>
      ) : null}

      <ul className="space-y-1.5 rounded-xl bg-surface-900/70 p-3 text-xs text-slate-300">
        <li className="flex gap-2">
          <Info className="mt-0.5 h-3.5 w-3.5 shrink-0 text-brand-400" aria-hidden />
          Send only USDT to this deposit address
        </li>
        <li className="flex gap-2">
          <Info className="mt-0.5 h-3.5 w-3.5 shrink-0 text-brand-400" aria-hidden />
          {`Use the ${networkName(payment.payCurrency)} network only`}
        </li>
        <li className="flex gap-2">
          <Info className="mt-0.5 h-3.5 w-3.5 shrink-0 text-brand-400" aria-hidden />
          {`Minimum deposit amount: ${payment.payAmount} ${token.symbol}`}
        </li>
      </ul>
    </section>
  );
}
