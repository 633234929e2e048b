import type { THistoryRecord } from '@app/core/contracts';
import { formatAmount } from '@app/core/format';
import { microToNumber, toMicro } from '@app/core/money';
import { useQuery } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { historyQueryOptions } from '../lib/history-api';
import { parseExtra } from '../lib/history-record';

const micro = (v: unknown) => (typeof v === 'number' ? (toMicro(Math.abs(v)) ?? 0n) : 0n);

/** Sums of the pending withdrawals among the newest ones: what left the balance, the fee, what will arrive. */
export function pendingWithdrawalTotals(rows: THistoryRecord[]) {
  const pending = rows.filter((r) => r.status.toLowerCase() === 'pending');
  let amount = 0n;
  let fee = 0n;
  let receive = 0n;
  for (const r of pending) {
    const e = parseExtra(r.extra);
    amount += micro(r.amount_usd);
    fee += micro(e.fee);
    receive += micro(e.expected_amount);
  }
  return { count: pending.length, amount: microToNumber(amount), fee: microToNumber(fee), receive: microToNumber(receive) };
}

/** The pending withdrawals' sums (null until loaded), for the places that show what is in flight. */
export function usePendingWithdrawals() {
  const history = useQuery(historyQueryOptions('withdrawal', 1));
  return history.data ? pendingWithdrawalTotals(history.data.data) : null;
}

/** A withdrawal waiting for approval has already left the Available Balance: say so where balances show. */
export function PendingWithdrawals() {
  const t = usePendingWithdrawals();
  if (!t) return null;
  if (t.count === 0) return null;
  return (
    <section className="card border-amber-500/20" data-testid="pending-withdrawals" aria-label="Pending withdrawals">
      <p className="flex items-center gap-2 text-sm font-semibold text-amber-200">
        <Clock className="h-4 w-4" aria-hidden /> {t.count === 1 ? '1 withdrawal pending' : `${t.count} withdrawals pending`}
      </p>
      <dl className="mt-2 space-y-1 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-300">Taken from your balance</dt>
          <dd className="font-semibold text-white">${formatAmount(t.amount)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-300">Fee</dt>
          <dd className="text-white">${formatAmount(t.fee)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-300">You will receive</dt>
          <dd className="text-white">${formatAmount(t.receive)}</dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-300">Waiting for approval. A rejected withdrawal returns the full amount.</p>
    </section>
  );
}
