import { WITHDRAW_PAGE_MIN_BALANCE_USD } from '@app/core/constants';
import { abbreviateAmount } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeftRight, BadgeDollarSign, Briefcase, Layers, Network, TrendingUp, Users, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { BalanceHelp, BalanceLine } from '../../../components/balance-help';
import { PendingWithdrawals } from '../../../components/pending-withdrawals';
import { PageHeader } from '../../../components/ui/page-header';
import { StatCard } from '../../../components/ui/stat-card';
import { LastUpdated, LoadingState, RefreshError } from '../../../components/ui/states';
import { LoadError, useFigures } from '../../../components/load-error';
import { useErrorToast } from '../../../lib/use-error-toast';
import { walletQueryOptions } from '../../../lib/shared-queries';

const money = (v: number) => `$${abbreviateAmount(v, { kDecimals: 0 })}`;

export default function WalletPage() {
  const wallet = useQuery(walletQueryOptions());
  const figures = useFigures(wallet);
  useErrorToast(wallet, 'Failed to fetch wallet information');
  if (figures.state === 'loading') return <LoadingState />;
  // Nothing read and nothing kept: the error (or offline) with Retry, never $0 (issue 47). A failed
  // refresh keeps the last good figures on screen (with the error and Retry above them).
  if (figures.state === 'failed' || figures.state === 'offline')
    return (
      <div className="space-y-4">
        <PageHeader title="Wallet" subtitle="Your balances and team at a glance" />
        <LoadError
          title="Failed to fetch wallet information"
          what="Your wallet"
          state={figures.state}
          error={figures.error}
          onRetry={figures.retry}
          busy={figures.busy}
        />
      </div>
    );
  if (wallet.data === undefined) return null;
  const w = wallet.data;
  // One rule on screen (issue 32, item 4): the button opens the withdrawal page, which needs $50;
  // under that it is disabled with the reason, instead of a live button that bounces with a red toast.
  const canWithdraw = w.balance >= WITHDRAW_PAGE_MIN_BALANCE_USD;
  return (
    <div className="space-y-4">
      <PageHeader title="Wallet" subtitle="Your balances and team at a glance" />
      {/* Offline nothing is asked: the banner and the time below say how old the figures are. */}
      {figures.online ? <RefreshError query={wallet} errorText="Failed to fetch wallet information" /> : null}
      <section className="rounded-2xl bg-gradient-to-br from-brand-600/50 via-surface-800 to-surface-800 p-5 ring-1 ring-white/5">
        <div className="flex items-start justify-between gap-2">
          <p className="flex items-center gap-2 text-sm text-slate-300">
            <Wallet className="h-4 w-4" aria-hidden /> Available Balance
          </p>
          <LastUpdated at={wallet.dataUpdatedAt} />
        </div>
        <p className="mt-1 text-4xl font-extrabold text-white" data-testid="available-balance">
          {money(w.balance)}
        </p>
        <BalanceLine kind="income" />
        <p className="mt-1 text-xs text-slate-300">Deposit balance {money(w.deposit_balance)}: for staking and transfers, not withdrawable.</p>
        <div className="mt-4 grid grid-cols-2 gap-2">
          {canWithdraw ? (
            <Link
              to="/withdrawal"
              className="inline-flex min-h-11 items-center justify-center whitespace-nowrap rounded-xl bg-brand-700 px-3 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
            >
              Withdraw Funds
            </Link>
          ) : (
            <button
              type="button"
              aria-describedby="withdraw-rule"
              disabled
              className="inline-flex min-h-11 cursor-not-allowed items-center justify-center whitespace-nowrap rounded-xl bg-brand-700 px-3 py-2.5 text-sm font-semibold text-white opacity-50"
            >
              Withdraw Funds
            </button>
          )}
          <Link
            to="/transfer"
            className="inline-flex min-h-11 items-center justify-center gap-1 rounded-xl border border-white/15 px-4 py-2.5 text-sm font-semibold text-white hover:bg-white/5"
          >
            <ArrowLeftRight className="h-4 w-4" aria-hidden /> Transfer
          </Link>
        </div>
        {!canWithdraw ? (
          <p
            className="mt-2 text-xs text-amber-300"
            id="withdraw-rule"
          >{`Withdrawals open from a balance of $${WITHDRAW_PAGE_MIN_BALANCE_USD}. Minimum amount is $10.`}</p>
        ) : null}
        <BalanceHelp className="mt-3" />
      </section>
      <PendingWithdrawals />
      <div className="grid grid-cols-2 gap-3">
        <StatCard label="Total Staked" value={money(w.total_staked)} icon={Layers} testId="wallet-total-staked" />
        <StatCard label="Total Earned" value={money(w.total_income)} icon={TrendingUp} />
        <StatCard label="Total Withdrawn" value={money(w.total_withdraw)} icon={BadgeDollarSign} />
        <StatCard
          label="Total Directs"
          value={w.total_directs}
          icon={Users}
          action={
            <Link to="/team" className="-mx-2 -my-2.5 inline-flex min-h-11 items-center rounded-lg px-2 text-xs font-semibold text-brand-400 hover:underline">
              My Team
            </Link>
          }
        />
        <StatCard label="Direct Business" value={money(w.total_direct_business)} icon={Briefcase} />
        <StatCard label="Total Network" value={w.total_network} icon={Network} />
        <StatCard
          label="Team Business"
          value={money(w.team_business.amount)}
          icon={Briefcase}
          action={<span className="text-xs text-slate-400">{`${w.team_business.users} staking ${w.team_business.users === 1 ? 'member' : 'members'}`}</span>}
        />
      </div>
    </div>
  );
}
