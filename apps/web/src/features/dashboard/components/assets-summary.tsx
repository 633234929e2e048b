import type { TUserInfo } from '@app/core/contracts';
import { abbreviateAmount, formatAmount } from '@app/core/format';
import { microToNumber, toMicro } from '@app/core/money';
import { useQuery } from '@tanstack/react-query';
import { ArrowDownToLine, ArrowUpFromLine, PiggyBank } from 'lucide-react';
import { Link } from 'react-router';
import { usePendingWithdrawals } from '../../../components/pending-withdrawals';
import { demoPendingQueryOptions, reopenable } from '../../../lib/open-payments';

const micro = (n: number) => toMicro(n) ?? 0n;

/**
 * "What do I have": the three balances added up (exactly, in micro-units), each named.
 * Deposit (for staking and transfers), Income (withdrawable) and Staked (locked).
 */
export function TotalAssets({ detail }: { detail: TUserInfo['user_detail'] }) {
  const total = microToNumber(micro(detail.deposit_balance) + micro(detail.balance) + micro(detail.total_staked));
  return (
    <section className="card" aria-labelledby="assets-title">
      <h2 id="assets-title" className="flex items-center gap-2 text-sm text-slate-400">
        <PiggyBank className="h-4 w-4 text-brand-400" aria-hidden /> Total assets
      </h2>
      <p className="mt-1 text-3xl font-bold text-white" data-testid="total-assets">
        ${abbreviateAmount(total)}
      </p>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-center" data-testid="assets-breakdown">
        {(
          [
            ['Deposit', detail.deposit_balance],
            ['Income', detail.balance],
            ['Staked', detail.total_staked],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-xl bg-surface-900/70 px-2 py-2">
            <dt className="text-xs text-slate-400">{label}</dt>
            <dd className="text-sm font-semibold text-slate-100">{` $${formatAmount(value)}`}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * "What is in flight": a deposit still waiting for money or confirmations (with the way back to
 * its address) and withdrawals waiting for approval. Nothing in flight: nothing shown.
 */
export function InFlight() {
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
            {`Deposit of $${formatAmount(open.amount)} ${open.status === 'waiting' ? 'waiting' : 'confirming'}`}
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
