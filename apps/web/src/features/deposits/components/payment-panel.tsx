import type { TDemoPayment } from '@app/core/contracts';
import { QR_SIZE } from '@app/core/constants';
import { microToDecimal, toMicro } from '@app/core/money';
import { formatAmount, formatCountdown, formatDateTime, groupAddress } from '@app/core/format';
import { Ban, Copy, Info } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { toast } from 'sonner';
import { PaymentAmount } from '../../../components/payment-status';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { paymentStatusKey, presentPayment, underReview } from '../../../lib/payment-status';
import { isCancellable } from '../api/payments-api';
import { Icon } from './icon';
import { networkName, parseExtra } from './payment-extra';
import { useCountdown } from './use-countdown';

/** Item 8 of issue 32: a transfer that lands after the window is credited for what arrived (payments/sandbox-chain.ts). */
export const LATE_MONEY_NOTE = 'Money that arrives after the timer is still credited for what arrived.';

/** A finished payment whose money is held for an admin's review (issue 47): received, not credited yet. */
export const UNDER_REVIEW_NOTE = 'This payment was received and is under review: it is credited to your Deposit Balance once checked.';

/** Why a closed payment's address must not be used again, per status. */
function closedReason(key: string, heldForReview: boolean): string {
  if (key === 'finished' && heldForReview) return UNDER_REVIEW_NOTE;
  if (key === 'finished') return 'This payment is complete and credited to your Deposit Balance.';
  if (key === 'partially_paid') return 'What arrived is credited to your Deposit Balance.';
  if (key === 'cancelled') return 'You cancelled this payment.';
  if (key === 'refunded') return 'The gateway returned this payment.';
  if (key === 'failed') return 'This payment failed.';
  return 'Its payment window is over.';
}

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
  onNew,
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
  /** Clears the panel and unlocks the form for a new payment (closed payments). */
  onNew?: () => void;
}) {
  const left = useCountdown(payment.timedout_at, startedAt);
  const info = parseExtra(extra, payment.payAmount);
  const key = paymentStatusKey(status, info);
  // The window only matters while the payment waits for money: once money is seen or the payment
  // is closed, the countdown stops and Cancel is not offered, since the server refuses it. A
  // waiting payment whose window ran out is closed here too (the server expires it within a minute).
  const waiting = status === 'waiting';
  const windowOver = waiting && left === 0;
  const closed = presentPayment(key).closed || windowOver;
  const cancellable = !closed && isCancellable(status, info.amount_received);
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
      {waiting ? (
        <div>
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
          {/* Exchange withdrawals often take longer than the window: say what happens to them. */}
          <p className="mt-1 text-xs text-slate-300">{LATE_MONEY_NOTE}</p>
        </div>
      ) : null}
      {windowOver ? <p className="sr-only">Expired</p> : null}

      {closed ? null : (
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
      )}

      <div className="flex flex-wrap items-center justify-between gap-2">
        <StatusBadge kind="payment" status={key} />
        <span className="inline-flex items-center gap-2 text-sm text-slate-300">
          <Icon src={payment.meta_data.chain.iconUrl} alt={payment.meta_data.chain.name} />
          {payment.meta_data.chain.name}
        </span>
      </div>

      {closed ? (
        <div className="rounded-xl border border-white/10 bg-surface-900 p-3" data-testid="address-closed">
          <p className="flex items-center gap-2 text-sm font-semibold text-white">
            <Ban className="h-4 w-4 shrink-0 text-red-400" aria-hidden /> This address is closed, do not send to it
          </p>
          <p className="mt-1 text-xs text-slate-300">
            {windowOver
              ? closedReason('expired', false)
              : closedReason(key, underReview(key, { received: info.amount_received, credited: info.credited_amount }))}
          </p>
          {onNew ? (
            // A partial payment's own next step is "Pay the missing amount" below: this one steps back.
            <Button variant={status === 'partially_paid' && missing ? 'secondary' : 'primary'} className="mt-3 w-full" onClick={onNew}>
              Start a new deposit
            </Button>
          ) : null}
        </div>
      ) : (
        <div>
          <p className="label">Deposit address</p>
          <div className="flex items-center justify-between gap-2 rounded-xl border border-white/10 bg-surface-900 p-2 pl-3">
            <code className="min-w-0 font-mono text-sm leading-6 text-slate-100" title={payment.payAddress} data-testid="pay-address">
              {groupAddress(payment.payAddress)}
            </code>
            <button
              type="button"
              onClick={() => void copy()}
              aria-label="Copy address"
              className="inline-flex min-h-11 shrink-0 items-center gap-1 rounded-lg bg-surface-700 px-3 text-xs font-semibold text-slate-100 hover:bg-surface-600"
            >
              <Copy className="h-3.5 w-3.5" aria-hidden /> Copy
            </button>
          </div>
        </div>
      )}

      <div className="flex items-baseline justify-between gap-3">
        <span className="text-sm text-slate-400">{waiting && !closed ? 'Send exactly' : 'Received'}</span>
        <PaymentAmount
          statusKey={windowOver ? 'expired' : key}
          received={info.amount_received}
          asked={payment.payAmount}
          credited={info.credited_amount}
          currency="USDT"
          className="text-right text-xl font-bold"
          testId="panel-amount"
        />
      </div>

      {status === 'partially_paid' ? (
        <div className="rounded-xl border border-amber-500/30 bg-amber-500/10 p-3 text-sm" data-testid="partial-box">
          <p className="font-semibold text-amber-200">Payment Completed (Partial Amount)</p>
          <dl className="mt-2 space-y-1 text-amber-100/90">
            {(
              [
                ['Amount Received', info.amount_received],
                ['Expected Amount', info.expected_amount],
              ] as const
            ).map(([label, amount]) => (
              <div key={label} className="flex justify-between">
                <dt>{label}</dt>
                <dd>
                  {formatAmount(amount)} {info.pay_currency}
                </dd>
              </div>
            ))}
          </dl>
          {info.status_description ? <p className="mt-1 text-xs">{info.status_description}</p> : null}
          {(info.confirmations_received ?? 0) > 0 ? <p className="mt-1 text-xs">{`${info.confirmations_received} confirmations received`}</p> : null}
          {missing ? (
            <div className="mt-3 border-t border-amber-500/30 pt-3" data-testid="partial-missing">
              <p className="font-semibold text-amber-100">
                Missing: {formatAmount(Number(missing))} {info.pay_currency}
              </p>
              <p className="mt-1 text-xs text-amber-100/90">To add the rest, create a new payment for the missing amount.</p>
              {onPayRest ? (
                <Button variant="outline" className="mt-2 w-full" onClick={() => onPayRest(missing)}>
                  Pay the missing amount
                </Button>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}

      {closed ? null : (
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
      )}

      {sandbox && status === 'waiting' && !closed ? (
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

      {closed ? null : (
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
            {`Send exactly ${formatAmount(payment.payAmount)} ${token.symbol}: less is credited as a partial payment.`}
          </li>
        </ul>
      )}
    </section>
  );
}
