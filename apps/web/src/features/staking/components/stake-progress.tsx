import type { TStakeRow } from '@app/core/contracts';
import { formatAmount } from '@app/core/format';

/**
 * One stake's progress (issue 12): days since it started and the ROI earned against its cap, as text
 * and as a progress bar whose value is the percent of the cap earned.
 * The percent drives the bar only; the amounts shown are the server's.
 */
export function StakeProgress({ stake }: { stake: TStakeRow }) {
  const pct = stake.cap > 0 ? Math.min(100, Math.floor((stake.earned / stake.cap) * 1000) / 10) : 0;
  const days = stake.days_elapsed === 0 ? 'Started today' : `${stake.days_elapsed} ${stake.days_elapsed === 1 ? 'day' : 'days'} elapsed`;
  return (
    <span className="inline-block w-44 text-left sm:w-48" data-testid="stake-progress">
      <span className="flex justify-between gap-2 text-xs">
        <span className="text-slate-200">
          ${formatAmount(stake.earned)} of ${formatAmount(stake.cap)} earned
        </span>
      </span>
      <span
        role="progressbar"
        aria-label={`Stake #${stake.id}: earned of cap`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct}%, $${formatAmount(stake.earned)} of $${formatAmount(stake.cap)}`}
        className="mt-1 block h-2 overflow-hidden rounded-full bg-surface-600"
      >
        <span className="block h-full rounded-full bg-brand-400" style={{ width: pct > 0 ? `max(${pct}%, 4px)` : '0' }} />
      </span>
      <span className="mt-1 flex justify-between text-[11px] text-slate-400">
        <span>{days}</span>
        <span>{pct}%</span>
      </span>
    </span>
  );
}
