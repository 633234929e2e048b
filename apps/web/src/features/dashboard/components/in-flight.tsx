import { formatAmount } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { ArrowDownToLine, ArrowUpFromLine } from 'lucide-react';
import { Link } from 'react-router';
import { usePendingWithdrawals } from '../../../components/pending-withdrawals';
import { demoPendingQueryOptions, reopenable } from '../../../lib/open-payments';
import { presentStatus } from '../../../lib/status-presentation';

/**
 * "What is in flight": a deposit still waiting for money or confirmations (with the way back to
 * its address) and withdrawals waiting for approval. Nothing in flight: nothing shown.
 */
export default function InFlight() {
  const payments = useQuery(demoPendingQueryOptions());
  const out = usePendingWithdrawals();
  const open = payments.data?.find((p) => reopenable(p));
  if (!open && !out?.count) return null;
  return (
    <section className="card space-y-2" aria-label="In progress" data-testid="in-flight">
      {open ? (
        <div className="flex items-center justify-between gap-3 rounded-xl bg-surface-900/70 p-3">
          <p className="flex min-w-0 items-center gap-2 text-sm text-slate-200">
            <ArrowDownToLine className="h-4 w-4 shrink-0 text-brand-300" aria-hidden />
            {`Deposit of $${formatAmount(open.amount)} ${presentStatus('payment', open.status).label.toLowerCase()}`}
          </p>
          <Link
            to="/demo-deposit"
            className="inline-flex min-h-11 shrink-0 items-center rounded-lg border border-white/15 px-3 text-xs font-semibold text-slate-100 hover:bg-white/5"
          >
            Reopen
          </Link>
        </div>
      ) : null}
      {out?.count ? (
        <div className="flex items-center justify-between gap-3 rounded-xl bg-surface-900/70 p-3">
          <p className="flex min-w-0 items-center gap-2 text-sm text-slate-200">
            <ArrowUpFromLine className="h-4 w-4 shrink-0 text-amber-300" aria-hidden />
            {out.count === 1 ? `Withdrawal of $${formatAmount(out.amount)} pending` : `${out.count} withdrawals of $${formatAmount(out.amount)} pending`}
          </p>
          <Link
            to="/transaction"
            className="inline-flex min-h-11 shrink-0 items-center rounded-lg border border-white/15 px-3 text-xs font-semibold text-slate-100 hover:bg-white/5"
          >
            Details
          </Link>
        </div>
      ) : null}
    </section>
  );
}
