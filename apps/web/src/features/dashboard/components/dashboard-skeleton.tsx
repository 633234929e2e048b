import { BalanceHelp, BalanceLine } from '../../../components/balance-help';
import { BalanceCard } from './balance-card';

/** A grey block the height of one line of the text it stands for. */
function Bone({ className }: { className: string }) {
  return <span className={`block animate-pulse rounded-md bg-white/10 ${className}`} aria-hidden />;
}

/** The username and rank pill of the header, before they are known. */
export function HeaderPillSkeleton() {
  return <span className="ml-auto block h-[34px] w-40 animate-pulse rounded-full border border-white/10 bg-surface-800" aria-hidden />;
}

/**
 * The dashboard before get-info answers, box for box the size of what replaces it (issue 32: the
 * page jumped when its data arrived, CLS 0.24): the greeting, the referral card and the two balance
 * cards with their labels and buttons, the figures as grey lines. The build paints it into
 * dashboard.html, so it is also the first thing a slow network shows. Keep it in step with
 * dashboard-page.tsx; e2e/weak-network.e2e.ts measures the shift.
 */
export function DashboardSkeleton() {
  return (
    <div className="space-y-4" data-testid="dashboard-skeleton" role="status">
      <span className="sr-only">Loading user information...</span>
      <section className="rounded-2xl bg-gradient-to-br from-brand-600/40 via-surface-800 to-surface-800 p-5 ring-1 ring-white/5">
        <Bone className="my-0.5 h-4 w-28" />
        <div className="mt-1 flex h-8 items-center gap-2">
          <Bone className="h-6 w-44" />
        </div>
        <Bone className="mt-2 h-4 w-56 max-w-full" />
      </section>
      <section className="card">
        <p className="text-sm font-semibold text-white">Your referral link</p>
        <Bone className="mt-0.5 h-4 w-64 max-w-full" />
        <div className="mt-3 flex items-center gap-2 rounded-xl border border-white/10 bg-surface-900 p-1.5 pl-3">
          <Bone className="h-3 flex-1" />
          <span className="inline-flex min-h-11 w-[74px] rounded-lg bg-brand-700/40" aria-hidden />
        </div>
      </section>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <BalanceCard kind="deposit">
          <div className="mt-2 flex h-9 items-center">
            <Bone className="h-7 w-32" />
          </div>
          <BalanceLine kind="deposit" />
          <BalanceHelp className="mt-1" />
          <span className="mt-4 block min-h-11 w-full rounded-xl bg-brand-700/40" aria-hidden />
        </BalanceCard>
        <BalanceCard kind="staking">
          <div className="mt-2 flex h-9 items-center">
            <Bone className="h-7 w-24" />
          </div>
          <span className="mt-4 block min-h-11 w-full rounded-xl border border-brand-500/30" aria-hidden />
        </BalanceCard>
      </div>
    </div>
  );
}
