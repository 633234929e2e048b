import type { TActivityItem } from '@app/core/contracts';
import { formatAmount, formatDateTime } from '@app/core/format';
import { ArrowDownToLine, ArrowUpFromLine, History, Layers } from 'lucide-react';
import { Link } from 'react-router';
import { PaymentAmount, PaymentStatusBadge } from '../../../components/payment-status';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { AMOUNT_TONE_CLASS, paymentStatusKey, presentPayment } from '../../../lib/payment-status';
import { Spinner } from '../../../components/ui/spinner';
import { shownAmount } from '../../../lib/shown-amount';

/** Activity status colours (spec section 4). */
function tone(status: string): BadgeTone {
  const s = status.toLowerCase();
  if (['active', 'confirmed', 'approved'].includes(s)) return 'success';
  if (['partially_paid', 'pending', 'waiting'].includes(s)) return 'warning';
  if (['inactive', 'failed', 'rejected'].includes(s)) return 'danger';
  return 'neutral';
}

const KIND = {
  staking: { label: 'Stake', icon: Layers },
  transaction: { label: 'Deposit', icon: ArrowDownToLine },
  withdrawal: { label: 'Withdrawal', icon: ArrowUpFromLine },
} as const;

export function ActivityList({ items, loading, error }: { items: TActivityItem[]; loading: boolean; error: boolean }) {
  return (
    <section className="card">
      <div className="mb-3 flex items-center justify-between">
        <h2 className="text-base font-semibold text-white">Recent Activities</h2>
        <Link to="/transaction" className="-mr-2 inline-flex min-h-11 items-center px-2 text-sm font-semibold text-brand-400 hover:underline">
          View All
        </Link>
      </div>
      {loading ? (
        <div className="py-6 text-center">
          <Spinner label="Loading activities..." />
        </div>
      ) : error ? (
        <p className="py-6 text-center text-sm text-red-400">Error loading user data</p>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center py-6 text-center">
          <span className="flex h-11 w-11 items-center justify-center rounded-full bg-surface-700 text-slate-400">
            <History className="h-5 w-5" aria-hidden />
          </span>
          <p className="mt-3 text-sm font-medium text-slate-300">No recent activities found</p>
          <p className="mt-1 text-xs text-slate-400">Your deposits, stakes and withdrawals will show up here.</p>
        </div>
      ) : (
        <ul className="divide-y divide-white/5">
          {items.map((a) => {
            const kind = KIND[a.recordType] ?? KIND.transaction;
            // The same rule as /transaction (spec section 3): amount_usd (stakes, withdrawals), else amount (deposits).
            const amount = shownAmount({ amount_usd: a.amount_usd, amount: a.amount });
            return (
              <li key={`${a.recordType}-${a.id}`} className="flex items-center gap-3 py-3">
                <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-surface-700 text-brand-300">
                  <kind.icon className="h-4 w-4" aria-hidden />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium text-slate-100">{kind.label}</p>
                  <p className="text-xs text-slate-400">{formatDateTime(a.createdAt)}</p>
                </div>
                {a.recordType === 'transaction' ? (
                  <DepositFigures status={a.status} amount={amount} />
                ) : (
                  <div className="text-right">
                    <p className="text-sm font-semibold text-white">${formatAmount(amount)}</p>
                    <Badge tone={tone(a.status)}>{a.status.replace(/_/g, ' ')}</Badge>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * A deposit in Recent Activities, by the payment status table like everywhere else. The activity
 * carries one amount: what was credited, else what was asked; a payment that ended without money
 * credited nothing, so it reads "$0.00 of $asked" in grey, as on /transaction.
 */
function DepositFigures({ status, amount }: { status: string; amount: number }) {
  const key = paymentStatusKey(status);
  const p = presentPayment(key);
  return (
    <div className="text-right">
      <p className="text-sm">
        {p.amountTone === 'muted' ? (
          <PaymentAmount statusKey={key} received={0} asked={amount} currency="$" />
        ) : (
          <span className={`font-semibold ${AMOUNT_TONE_CLASS[p.amountTone]}`}>${formatAmount(amount)}</span>
        )}
      </p>
      <PaymentStatusBadge statusKey={key} />
    </div>
  );
}
