import { abbreviateAmount, rankLabel } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { Crown } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { BalanceHelp, BalanceLine } from '../../../components/balance-help';
import { StatusBadge } from '../../../components/status-badge';
import { LastUpdated, RefreshError } from '../../../components/ui/states';
import { LoadError, useFigures } from '../../../components/load-error';
import { useErrorToast } from '../../../lib/use-error-toast';
import { userInfoQueryOptions } from '../../../lib/shared-queries';
import { ActivityList } from '../components/activity-list';
import { BalanceCard } from '../components/balance-card';
import { DashboardSkeleton, HeaderPillSkeleton } from '../components/dashboard-skeleton';
import { TotalAssets } from '../components/assets-summary';
import { ReferralLink } from '../components/referral-link';

// What is in flight (open deposits, pending withdrawals) asks the server for more and shows only
// when something is: it loads beside the balance, outside the signed-in chunk (issue 32's budget).
const InFlight = lazy(() => import('../components/in-flight'));

function greeting(): string {
  const h = new Date().getHours();
  return h < 12 ? 'Good morning' : h < 18 ? 'Good afternoon' : 'Good evening';
}

export default function DashboardPage() {
  const info = useQuery(userInfoQueryOptions());
  const figures = useFigures(info);
  const loading = figures.state === 'loading';
  useErrorToast(info, 'Failed to fetch user information');

  const user = info.data;
  return (
    <div className="space-y-4">
      <header className="flex items-center justify-between">
        <Link to="/" className="-m-1.5 flex min-h-11 min-w-11 items-center gap-2 p-1.5 text-lg font-bold text-white lg:hidden">
          <img src="/favicon.svg" alt="USDT Stake" className="h-8 w-8" />
          <span className="hidden sm:inline">
            USDT<span className="text-brand-400">Stake</span>
          </span>
        </Link>
        {user ? (
          <div className="ml-auto flex items-center gap-2 rounded-full border border-white/10 bg-surface-800 py-1 pl-3 pr-1">
            <span className="font-mono text-sm text-slate-200" data-testid="header-username">
              {user.username}
            </span>
            <span className="inline-flex items-center gap-1 rounded-full bg-gold-400/15 px-2 py-0.5 text-xs font-semibold text-gold-400">
              <Crown className="h-3 w-3" aria-hidden />
              {rankLabel(user.eligible_level)}
            </span>
          </div>
        ) : loading ? (
          <HeaderPillSkeleton />
        ) : null}
      </header>

      {/* Offline nothing is asked: the banner and "Last updated" say how old the figures are. */}
      {figures.online ? <RefreshError query={info} errorText="Error loading user data" /> : null}
      {loading ? (
        <DashboardSkeleton />
      ) : figures.state === 'failed' || figures.state === 'offline' ? (
        <LoadError
          title="Error loading user data"
          what="Your dashboard"
          state={figures.state}
          error={figures.error}
          onRetry={figures.retry}
          busy={figures.busy}
        />
      ) : !user ? null : (
        <>
          <section className="rounded-2xl bg-gradient-to-br from-brand-600/40 via-surface-800 to-surface-800 p-5 ring-1 ring-white/5">
            <div className="flex items-start justify-between gap-2">
              <p className="text-sm text-slate-300">{greeting()},</p>
              <LastUpdated at={info.dataUpdatedAt} />
            </div>
            <div className="mt-1 flex flex-wrap items-center gap-2">
              <h1 className="text-2xl font-bold text-white">{user.name}</h1>
              <StatusBadge kind="user" status={user.status} />
            </div>
            {/* The line is kept (empty) for an active user too: the skeleton cannot know which it will be, and nothing below moves either way. */}
            <p className="mt-2 min-h-4 text-xs text-slate-400">{user.status !== 'active' ? 'Make your first stake to activate your account.' : null}</p>
          </section>

          <TotalAssets detail={user.user_detail} />
          <Suspense fallback={null}>
            <InFlight />
          </Suspense>

          <ReferralLink username={user.username} />

          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <BalanceCard kind="deposit">
              <p className="mt-2 text-3xl font-bold text-white" data-testid="deposit-balance">
                ${abbreviateAmount(user.user_detail.deposit_balance)}
              </p>
              <BalanceLine kind="deposit" />
              <BalanceHelp className="mt-1" />
              <Link
                to="/demo-deposit"
                className="mt-4 inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-brand-700 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-800"
              >
                Deposit
              </Link>
            </BalanceCard>
            <BalanceCard kind="staking">
              <p className="mt-2 text-3xl font-bold text-white" data-testid="total-staked">
                ${abbreviateAmount(user.user_detail.total_staked)}
              </p>
              <Link
                to="/staking"
                className="mt-4 inline-flex min-h-11 w-full items-center justify-center rounded-xl border border-brand-500/60 px-4 py-2.5 text-sm font-semibold text-brand-300 hover:bg-brand-500/10"
              >
                Stake Now
              </Link>
            </BalanceCard>
          </div>
        </>
      )}

      {/* Offline with nothing kept there is no list to show, and "No recent activities" would not be true. */}
      {figures.state === 'offline' ? null : <ActivityList items={user?.activity ?? []} loading={loading} error={figures.state === 'failed'} />}
    </div>
  );
}
