import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Lock } from 'lucide-react';
import { Spinner } from '../../../components/ui/spinner';
import { rewardLevelsQueryOptions } from '../api/income-api';

/** Thresholds are round sums: '$1,000', not '$1.00K' (issue 12, item 13). */
const dollarsFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const dollars = (v: number | string) => `$${dollarsFormat.format(Number(v))}`;

export function RewardLevels() {
  const levels = useQuery(rewardLevelsQueryOptions());
  return (
    <section className="card">
      <h2 className="mb-3 text-base font-semibold text-white">Reward levels</h2>
      {levels.isPending ? (
        <Spinner label="Loading..." />
      ) : levels.isError ? (
        <p className="text-sm text-red-400">Failed to load reward levels</p>
      ) : !levels.data.length ? (
        <p className="text-sm text-slate-400">No reward levels configured</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2">
          {levels.data.map((l) => (
            <li
              key={l.level}
              className={`flex items-center gap-3 rounded-xl border p-3 ${l.achieved ? 'border-emerald-500/30 bg-emerald-500/10' : 'border-white/5 bg-surface-900/60'}`}
            >
              <span
                className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-xl font-bold ${l.achieved ? 'bg-emerald-500 text-white' : 'bg-surface-700 text-slate-300'}`}
              >
                L{l.level}
              </span>
              <div className="min-w-0 flex-1 text-xs text-slate-400">
                <p>
                  Self <span className="text-slate-200">{dollars(l.self_investment)}</span> · Directs{' '}
                  <span className="text-slate-200">{dollars(l.direct_investment)}</span>
                </p>
                <p className="text-sm font-semibold text-gold-400">Reward {dollars(l.reward)}</p>
              </div>
              {l.achieved ? (
                <CheckCircle2 className="h-5 w-5 text-emerald-400" aria-label="Achieved" />
              ) : (
                <Lock className="h-4 w-4 text-slate-400" aria-label="Not reached" />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
