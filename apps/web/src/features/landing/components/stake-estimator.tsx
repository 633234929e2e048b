import { Calculator } from 'lucide-react';
import { useId } from 'react';
import { RATES } from '../content';
import { ESTIMATOR_DEFAULT, ESTIMATOR_MAX, ESTIMATOR_PRESETS, estimate, PRESET_LOOK, usd0 } from './behaviour';

/**
 * An illustration of one stake at the default rates; it says what it is, and promises nothing.
 * Markup only, for the default amount: behaviour.ts moves the amount and its figures.
 */
export function StakeEstimator() {
  const amount = ESTIMATOR_DEFAULT;
  const id = useId();
  const rows = estimate(amount);
  return (
    <div data-estimator className="relative rounded-3xl border border-white/10 bg-surface-800/80 p-5 shadow-2xl shadow-black/40 backdrop-blur sm:p-6">
      <div aria-hidden className="absolute -inset-px -z-10 rounded-3xl bg-gradient-to-br from-brand-500/30 via-transparent to-gold-400/20 blur-xl" />
      <div className="flex items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-sm font-semibold text-white">
          <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-brand-500/15 text-brand-300">
            <Calculator className="h-4 w-4" aria-hidden />
          </span>
          Stake estimator
        </p>
        <span className="rounded-full bg-brand-500/10 px-2.5 py-1 text-xs font-semibold text-brand-300">{RATES.dailyRoiPercent}% / day</span>
      </div>

      <label htmlFor={id} className="mt-5 block text-xs font-medium uppercase tracking-wide text-slate-400">
        Stake amount
      </label>
      <p className="mt-1 text-3xl font-bold tabular-nums text-white" aria-live="polite" data-estimator-amount>
        {usd0(amount)}
      </p>
      <input
        id={id}
        type="range"
        min={RATES.stakeMin}
        max={ESTIMATOR_MAX}
        step={RATES.stakeStep}
        defaultValue={amount}
        className="mt-3 w-full cursor-pointer accent-brand-500"
      />
      <div className="mt-3 flex flex-wrap gap-2">
        {ESTIMATOR_PRESETS.map((p) => (
          <button
            key={p}
            type="button"
            data-preset={p}
            aria-pressed={amount === p}
            className={`min-h-11 min-w-11 rounded-lg border px-3 py-1 text-xs font-semibold transition ${PRESET_LOOK[amount === p ? 'on' : 'off']}`}
          >
            {usd0(p)}
          </button>
        ))}
      </div>

      <dl className="mt-5 divide-y divide-white/5 rounded-2xl bg-surface-900/70 px-4">
        {rows.map((r) => (
          <div key={r.label} className="flex items-center justify-between gap-3 py-3">
            <dt className="text-sm text-slate-400">{r.label}</dt>
            <dd data-estimator-figure className={`tabular-nums ${r.strong ? 'text-lg font-bold text-brand-300' : 'font-semibold text-white'}`}>
              {r.value}
            </dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-xs leading-relaxed text-slate-400">
        An illustration at the current default rate. A stake earns until it has paid {RATES.capPercent}% of its amount; your principal is part of that total and
        is not returned separately. Rates for new stakes can change. Staking carries risk.
      </p>
    </div>
  );
}
