import type { TActivityItem } from '@app/core/contracts';
import { formatAmount, formatDateTime } from '@app/core/format';
import { ArrowDownToLine, ArrowUpFromLine, Layers } from 'lucide-react';
import { PaymentAmount } from '../../../components/payment-status';
import { StatusBadge } from '../../../components/status-badge';
import { paymentStatusKey } from '../../../lib/payment-status';
import { shownAmount } from '../../../lib/shown-amount';

/** Each kind of activity: its name, icon and the status table its badge reads (lib/status-presentation.ts). */
const KIND = {
  staking: { label: 'Stake', icon: Layers, status: 'stake' },
  transaction: { label: 'Deposit', icon: ArrowDownToLine, status: 'payment' },
  withdrawal: { label: 'Withdrawal', icon: ArrowUpFromLine, status: 'withdrawal' },
} as const;

/** The dashboard's recent activities, newest first (loaded on demand by activity-list.tsx). */
export default function ActivityRows({ items }: { items: TActivityItem[] }) {
  return (
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
              <DepositFigures statusKey={paymentStatusKey(a.status, a)} received={a.received ?? amount} asked={a.asked ?? amount} />
            ) : (
              <div className="text-right">
                <p className="text-sm font-semibold text-white">${formatAmount(amount)}</p>
                <StatusBadge kind={kind.status} status={a.status} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A deposit in Recent Activities, by the payment status table like everywhere else
 * (docs/ux-rules.md): the same words, colours and amount rule as /transaction ("$20.00 of $50.00"
 * for a partial payment, "$0.00 of $50.00" in grey for one that ended without money).
 */
function DepositFigures({ statusKey, received, asked }: { statusKey: string; received: number; asked: number }) {
  return (
    <div className="text-right">
      <p className="text-sm">
        <PaymentAmount statusKey={statusKey} received={received} asked={asked} currency="$" testId="activity-amount" />
      </p>
      <StatusBadge kind="payment" status={statusKey} />
    </div>
  );
}
