import { Link } from 'react-router';
import { RATES } from '../content';
import { CreateAccountLink } from './create-account-link';

export function CallToAction() {
  return (
    <section className="px-4 pb-16 pt-4 sm:pb-24">
      <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl border border-white/10 bg-gradient-to-br from-brand-600/40 via-surface-800 to-surface-800 px-6 py-12 text-center sm:px-12">
        <div aria-hidden className="pointer-events-none absolute -right-20 -top-20 h-64 w-64 rounded-full bg-brand-400/20 blur-3xl" />
        <h2 className="relative text-balance text-3xl font-bold tracking-tight text-white sm:text-4xl">Ready to put your USDT to work?</h2>
        <p className="relative mx-auto mt-4 max-w-xl text-pretty text-slate-300">
          Open a free account in a minute. Start with ${RATES.stakeMin}, see every credit in your income history, and withdraw once your income balance reaches
          ${RATES.withdrawOpensAt}.
        </p>
        <div className="relative mt-8 flex flex-wrap justify-center gap-3">
          <CreateAccountLink className="inline-flex items-center gap-2 rounded-xl bg-brand-700 px-6 py-3.5 font-semibold text-white shadow-lg shadow-brand-500/30 transition hover:bg-brand-800" />
          <Link
            to="/login"
            className="inline-flex items-center rounded-xl border border-white/15 px-6 py-3.5 font-semibold text-white transition hover:bg-white/5"
          >
            I have an account
          </Link>
        </div>
      </div>
    </section>
  );
}
