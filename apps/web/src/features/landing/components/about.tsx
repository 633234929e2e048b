import { ArrowDown, BadgeDollarSign, Landmark, Lock, Repeat, ShieldCheck, Wallet, Zap } from 'lucide-react';
import { RATES } from '../content';
import { IconTile } from './icon-tile';
import { Section } from './section';

const POINTS = [
  { icon: ShieldCheck, text: 'Every movement is a balanced double-entry ledger record, and the books are verified to add up.' },
  { icon: Lock, text: 'A balance can never go below zero, even when requests arrive at the same moment.' },
  { icon: Zap, text: 'A deposit is credited once, for exactly what arrived on chain.' },
  { icon: BadgeDollarSign, text: `Clear fees: ${RATES.withdrawFeePercent}% on withdrawals, shown before you confirm. Transfers between members are free.` },
];

const FLOW = [
  { icon: Wallet, title: 'Deposit balance', text: 'USDT you send in' },
  { icon: Landmark, title: 'Stakes', text: `Earn ${RATES.dailyRoiPercent}% a day each` },
  { icon: BadgeDollarSign, title: 'Income balance', text: 'ROI, referral and rewards' },
  { icon: Repeat, title: 'Withdraw or transfer', text: `From $${RATES.withdrawMin}, to your wallet` },
];

export function About() {
  return (
    <Section id="About" tinted eyebrow="About" title="Built like a bank ledger, simple as an app">
      <div className="grid items-center gap-10 lg:grid-cols-2">
        <div>
          <p className="text-pretty leading-relaxed text-slate-300 sm:text-lg">
            USDT Stake puts idle USDT to work. Your deposit balance funds your stakes; every day each active stake credits its ROI to your income balance, which
            you can withdraw or send to another member. Referral income and reward levels add to it as you invite others.
          </p>
          <ul className="mt-8 space-y-4">
            {POINTS.map((p) => (
              <li key={p.text} className="flex gap-3 text-sm leading-relaxed text-slate-300">
                <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-brand-500/10 text-brand-300">
                  <p.icon className="h-4 w-4" aria-hidden />
                </span>
                <span className="pt-1">{p.text}</span>
              </li>
            ))}
          </ul>
        </div>
        <ol aria-label="How money moves" className="grid gap-2 sm:grid-cols-2 sm:gap-4 lg:grid-cols-1 lg:gap-2">
          {FLOW.map((f, i) => (
            <li key={f.title} className="flex flex-col items-center gap-2">
              <div className="flex w-full items-center gap-4 rounded-2xl border border-white/5 bg-surface-800/80 p-4">
                <IconTile icon={f.icon} className="bg-gradient-to-br from-surface-600 to-surface-700 text-brand-300" />
                <div>
                  <p className="font-semibold text-white">{f.title}</p>
                  <p className="text-sm text-slate-400">{f.text}</p>
                </div>
                <span className="ml-auto text-xs font-bold text-slate-400">0{i + 1}</span>
              </div>
              {i < FLOW.length - 1 ? <ArrowDown className="h-4 w-4 text-brand-500/60 sm:hidden lg:block" aria-hidden /> : null}
            </li>
          ))}
        </ol>
      </div>
    </Section>
  );
}
