import { ArrowRight, BadgeDollarSign, CheckCircle2, Coins, Gift, Layers, Lock, Rocket, ShieldCheck, Sparkles, TrendingUp, UserPlus, Users, Wallet, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { Faq } from '../components/faq';
import { Marquee } from '../components/marquee';
import { Navbar } from '../components/navbar';
import { Section } from '../components/section';
import { TypingHeadline } from '../components/typing-headline';

const PARTNERS = ['Tether', 'BNB Chain', 'Polygon', 'TRON', 'Chainlink', 'PancakeSwap', 'Uniswap', 'Aave', 'Curve', 'SushiSwap'];
const EXCHANGES = ['Binance', 'OKX', 'Bybit', 'KuCoin', 'Gate.io', 'HTX', 'Bitget', 'MEXC'];
const WALLETS = [
  { name: 'MetaMask', note: 'BSC and Polygon' },
  { name: 'Trust Wallet', note: 'All three chains' },
  { name: 'TronLink', note: 'Tron (TRC20)' },
  { name: 'SafePal', note: 'Hardware and app' },
  { name: 'Coinbase Wallet', note: 'BSC and Polygon' },
  { name: 'Ledger', note: 'Hardware security' },
];
const CHAINS = [
  { name: 'BNB Smart Chain', tag: 'BEP20', color: 'from-yellow-400/30', text: 'Low fees and fast blocks: the most popular way to move USDT.' },
  { name: 'Polygon', tag: 'MATIC', color: 'from-purple-500/30', text: 'An Ethereum scaling network with near-instant, cheap transfers.' },
  { name: 'Tron', tag: 'TRC20', color: 'from-red-500/30', text: 'The largest USDT network by volume, supported by every exchange.' },
];
const STEPS = [
  { icon: UserPlus, title: 'Create your account', text: 'Sign up with your e-mail in a minute and verify it with a one-time code.' },
  { icon: Wallet, title: 'Deposit USDT', text: 'Pick BSC, Polygon or Tron, scan the QR code and send USDT from any wallet or exchange.' },
  { icon: TrendingUp, title: 'Stake and earn', text: 'Stake from $50 and collect 0.5% of your stake every day, up to 200%.' },
];
const DEFI = [
  { icon: Layers, title: 'Staking', text: 'Each stake keeps its own terms and earns daily until its cap.' },
  { icon: Users, title: 'Referral income', text: '5% of every stake your direct referrals make, paid at once.' },
  { icon: Gift, title: 'Reward levels', text: 'Seven levels, from $100 to $25,000 one-time rewards.' },
  { icon: Coins, title: 'Transfers', text: 'Send USDT to another member by username, instantly and free.' },
];
const ROADMAP = [
  { when: 'Nov 2024', title: 'Launch', text: 'Platform launch with USDT staking on BSC.' },
  { when: 'Dec 2024', title: 'More chains', text: 'Polygon and Tron deposits and withdrawals.' },
  { when: 'Q1 2025', title: 'Rewards', text: 'Referral income and the L1–L7 reward levels.' },
  { when: 'Q2 2025', title: 'Ecosystem', text: 'Team tools, transfers between members and a mobile-first app.' },
];

export default function LandingPage() {
  return (
    <div className="min-h-dvh bg-surface-950">
      <Navbar />
      <section id="Home" className="relative overflow-hidden px-4 pb-16 pt-28 sm:pt-36">
        <div aria-hidden className="pointer-events-none absolute -top-32 left-1/2 h-[28rem] w-[48rem] -translate-x-1/2 rounded-full bg-brand-500/20 blur-3xl" />
        <div className="relative mx-auto max-w-6xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-500/30 bg-brand-500/10 px-3 py-1 text-xs font-semibold text-brand-300">
            <Sparkles className="h-3.5 w-3.5" aria-hidden /> USDT staking on BSC, Polygon and Tron
          </p>
          <h1 className="mx-auto mt-6 max-w-4xl text-4xl font-extrabold leading-tight text-white sm:text-6xl">
            Grow your USDT with
            <br />
            <TypingHeadline />
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-base text-slate-300 sm:text-lg">Stake USDT from $50 and earn 0.5% every day up to 200%, plus 5% on your referrals’ stakes and one-time rewards as your team grows.</p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link to="/dashboard" className="inline-flex items-center gap-2 rounded-xl bg-brand-500 px-6 py-3 font-semibold text-white shadow-lg shadow-brand-500/30 hover:bg-brand-600">
              Start Farming <ArrowRight className="h-4 w-4" aria-hidden />
            </Link>
            <Link to="/dashboard" className="inline-flex items-center gap-2 rounded-xl border border-white/15 px-6 py-3 font-semibold text-white hover:bg-white/5">
              GET STARTED
            </Link>
          </div>
          <dl className="mx-auto mt-12 grid max-w-3xl grid-cols-3 gap-3 text-center">
            {[
              ['0.5%', 'daily ROI'],
              ['200%', 'stake cap'],
              ['5%', 'referral income'],
            ].map(([v, l]) => (
              <div key={l} className="rounded-2xl border border-white/5 bg-surface-800/60 p-4">
                <dt className="text-2xl font-bold text-white sm:text-3xl">{v}</dt>
                <dd className="text-xs text-slate-400 sm:text-sm">{l}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="mt-12">
          <Marquee items={PARTNERS.map((p) => p)} />
          <Marquee items={EXCHANGES.map((e) => e)} reverse />
        </div>
      </section>

      <Section id="HowStart" eyebrow="How to Start" title="Three steps to daily rewards" subtitle="From sign-up to your first ROI credit in a day.">
        <ol className="grid gap-4 md:grid-cols-3">
          {STEPS.map((s, i) => (
            <li key={s.title} className="card relative p-6">
              <span className="absolute right-4 top-4 text-5xl font-black text-white/5">{i + 1}</span>
              <s.icon className="h-8 w-8 text-brand-400" aria-hidden />
              <h3 className="mt-4 text-lg font-semibold text-white">{s.title}</h3>
              <p className="mt-2 text-sm text-slate-400">{s.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="chains" eyebrow="Supported chains" title="Deposit on the network you already use" subtitle="Every deposit gets a fresh address and a QR code.">
        <div className="grid gap-4 md:grid-cols-3">
          {CHAINS.map((c) => (
            <div key={c.name} className={`rounded-2xl border border-white/5 bg-gradient-to-br ${c.color} to-surface-800 p-6`}>
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-300">{c.tag}</p>
              <h3 className="mt-1 text-xl font-bold text-white">{c.name}</h3>
              <p className="mt-2 text-sm text-slate-300">{c.text}</p>
            </div>
          ))}
        </div>
        <h3 className="mb-2 mt-10 text-center text-sm font-semibold uppercase tracking-wide text-slate-400">Buy USDT on any major exchange</h3>
        <div className="flex flex-wrap justify-center gap-2">
          {EXCHANGES.map((e) => (
            <span key={e} className="rounded-full border border-white/10 px-3 py-1 text-sm text-slate-300">
              {e}
            </span>
          ))}
        </div>
      </Section>

      <Section id="wallet" eyebrow="Wallets" title="Works with your wallet" subtitle="Send from any wallet that holds USDT on BSC, Polygon or Tron.">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 md:grid-cols-3">
          {WALLETS.map((w) => (
            <div key={w.name} className="card flex items-center gap-3">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-500/15 text-brand-300">
                <Wallet className="h-5 w-5" aria-hidden />
              </span>
              <div className="min-w-0">
                <p className="truncate font-semibold text-white">{w.name}</p>
                <p className="truncate text-xs text-slate-400">{w.note}</p>
              </div>
            </div>
          ))}
        </div>
      </Section>

      <Section id="About" eyebrow="About" title="Built like a bank ledger, simple as an app">
        <div className="grid gap-6 md:grid-cols-2">
          <p className="text-slate-300">
            USDT Stake lets you put idle USDT to work. Your deposit balance funds stakes; every day each active stake credits its ROI to your income balance, which you can withdraw or transfer. Referral income and reward levels add to it as you invite others.
          </p>
          <ul className="space-y-3 text-sm text-slate-300">
            {[
              [ShieldCheck, 'Every movement is a balanced double-entry ledger record, verified continuously.'],
              [Lock, 'Balances can never go below zero, even under simultaneous requests.'],
              [Zap, 'Deposits are credited once, for exactly what arrived on chain.'],
              [BadgeDollarSign, 'Transparent fees: 5% on withdrawals, nothing on transfers.'],
            ].map(([Icon, text]) => {
              const I = Icon as typeof ShieldCheck;
              return (
                <li key={text as string} className="flex gap-3">
                  <I className="mt-0.5 h-5 w-5 shrink-0 text-brand-400" aria-hidden />
                  {text as string}
                </li>
              );
            })}
          </ul>
        </div>
      </Section>

      <Section id="defi" eyebrow="DeFi ecosystem" title="Four ways your balance grows">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {DEFI.map((d) => (
            <div key={d.title} className="card p-5">
              <d.icon className="h-7 w-7 text-gold-400" aria-hidden />
              <h3 className="mt-3 font-semibold text-white">{d.title}</h3>
              <p className="mt-1 text-sm text-slate-400">{d.text}</p>
            </div>
          ))}
        </div>
      </Section>

      <Section id="Roadmap" eyebrow="Roadmap" title="Where we are going" subtitle="From Nov 2024 to Q2 2025.">
        <ol className="relative mx-auto max-w-3xl space-y-6 border-l border-brand-500/30 pl-6">
          {ROADMAP.map((r) => (
            <li key={r.when} className="relative">
              <span className="absolute -left-[31px] top-1 flex h-4 w-4 items-center justify-center rounded-full bg-brand-500 ring-4 ring-surface-950">
                <CheckCircle2 className="h-3 w-3 text-white" aria-hidden />
              </span>
              <p className="text-xs font-semibold uppercase tracking-wide text-brand-300">{r.when}</p>
              <h3 className="text-lg font-semibold text-white">{r.title}</h3>
              <p className="text-sm text-slate-400">{r.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="FAQ" eyebrow="FAQ" title="Questions, answered">
        <Faq />
      </Section>

      <section className="px-4 pb-16">
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-4 rounded-3xl bg-gradient-to-br from-brand-600/40 to-surface-800 p-8 text-center ring-1 ring-white/10">
          <Rocket className="h-10 w-10 text-gold-400" aria-hidden />
          <h2 className="text-2xl font-bold text-white sm:text-3xl">Ready to put your USDT to work?</h2>
          <Link to="/signup" className="rounded-xl bg-brand-500 px-6 py-3 font-semibold text-white hover:bg-brand-600">
            Create your free account
          </Link>
        </div>
      </section>

      <footer className="border-t border-white/5 px-4 py-10 text-sm text-slate-400">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-6 md:flex-row">
          <p>© 2025 USDT Stake. All rights reserved.</p>
          <nav aria-label="Social" className="flex gap-4">
            {[
              ['Telegram', 'https://t.me/usdtstake'],
              ['X (Twitter)', 'https://x.com/usdtstake'],
              ['YouTube', 'https://youtube.com/@usdtstake'],
            ].map(([label, href]) => (
              <a key={label} href={href} target="_blank" rel="noreferrer noopener" className="hover:text-white">
                {label}
              </a>
            ))}
          </nav>
          <nav aria-label="Legal" className="flex gap-4">
            <Link to="/privacy-policy" className="hover:text-white">
              Privacy Policy
            </Link>
            <Link to="/terms-conditions" className="hover:text-white">
              Terms &amp; Conditions
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
