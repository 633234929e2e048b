import { ArrowRight, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { CHAINS, RATES } from '../content';
import { ChainLogo } from './brand';
import { StakeEstimator } from './stake-estimator';
import { TypingHeadline } from './typing-headline';

const STATS = [
  { value: `${RATES.dailyRoiPercent}%`, label: 'daily ROI per stake' },
  { value: `${RATES.capPercent}%`, label: 'cap per stake, principal included' },
  { value: `${RATES.referralPercent}%`, label: 'direct referral income' },
  { value: 'L1–L7', label: 'one-time team rewards' },
];

export function Hero() {
  // The spec sends both to /dashboard for everyone: a visitor who is not signed in meets its guard,
  // the login page, which links to sign-up.
  const start = '/dashboard';
  return (
    <section id="Home" className="relative scroll-mt-16 overflow-hidden px-4 pb-12 pt-28 sm:pt-36">
      <div aria-hidden className="pointer-events-none absolute inset-0 -z-0">
        <div className="absolute -top-40 left-1/2 h-[36rem] w-[36rem] -translate-x-1/2 rounded-full bg-brand-500/20 blur-3xl lg:left-1/4" />
        <div className="absolute right-0 top-40 hidden h-80 w-80 rounded-full bg-gold-400/10 blur-3xl lg:block" />
        <div className="absolute inset-0 bg-[linear-gradient(to_right,rgb(255_255_255/0.04)_1px,transparent_1px),linear-gradient(to_bottom,rgb(255_255_255/0.04)_1px,transparent_1px)] bg-[size:48px_48px] [mask-image:radial-gradient(ellipse_at_top,black_20%,transparent_70%)]" />
      </div>

      <div className="relative mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-[1.15fr_1fr] lg:gap-16">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-white/10 bg-surface-800/70 py-1 pl-1.5 pr-3 text-xs font-semibold text-slate-200">
            <span className="flex -space-x-1.5">
              {CHAINS.map((c) => (
                <ChainLogo key={c.id} id={c.id} className="h-5 w-5 ring-2 ring-surface-800" />
              ))}
            </span>
            USDT staking on BSC, Polygon and Tron
          </p>
          <h1 className="mt-6 text-4xl font-extrabold leading-[1.1] tracking-tight text-white sm:text-6xl">
            Put your USDT to work for
            <TypingHeadline />
          </h1>
          <p className="mx-auto mt-5 max-w-xl text-pretty text-base leading-relaxed text-slate-300 sm:text-lg lg:mx-0">
            Stake from ${RATES.stakeMin} and earn {RATES.dailyRoiPercent}% of your stake every day until it has paid {RATES.capPercent}%. Invite friends to earn{' '}
            {RATES.referralPercent}% of their stakes, and unlock one-time rewards as your team grows.
          </p>
          <div className="mx-auto mt-8 flex max-w-sm flex-col gap-3 sm:max-w-none sm:flex-row sm:justify-center lg:justify-start">
            <Link
              to={start}
              className="inline-flex items-center justify-center gap-2 rounded-xl bg-brand-700 px-6 py-3.5 font-semibold text-white shadow-lg shadow-brand-500/30 transition hover:bg-brand-800"
            >
              Start Farming <ArrowRight className="h-4 w-4" aria-hidden />
            </Link>
            <Link
              to={start}
              className="inline-flex items-center justify-center rounded-xl border border-white/15 bg-white/5 px-6 py-3.5 font-semibold tracking-wide text-white transition hover:bg-white/10"
            >
              GET STARTED
            </Link>
          </div>
          <p className="mt-5 flex items-center justify-center gap-2 text-sm text-slate-400 lg:justify-start">
            <ShieldCheck className="h-4 w-4 shrink-0 text-brand-400" aria-hidden />
            Every balance backed by a double-entry ledger
          </p>
        </div>
        <StakeEstimator />
      </div>

      <dl className="relative mx-auto mt-14 grid max-w-6xl grid-cols-2 gap-3 sm:grid-cols-4">
        {STATS.map((s) => (
          <div key={s.label} className="flex flex-col rounded-2xl border border-white/5 bg-surface-800/60 px-4 py-5 text-center">
            <dt className="order-2 mt-1 text-xs text-slate-400 sm:text-sm">{s.label}</dt>
            <dd className="order-1 text-2xl font-bold text-white sm:text-3xl">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
