import { TrendingUp, UserPlus, Wallet } from 'lucide-react';
import { RATES } from '../content';
import { CreateAccountLink } from './create-account-link';
import { Section } from './section';

const STEPS = [
  {
    icon: UserPlus,
    title: 'Create your account',
    text: 'Sign up with your e-mail or Google and confirm it with a 6-digit code. Got an invite? Add the referral ID of the friend who sent it.',
  },
  {
    icon: Wallet,
    title: 'Deposit USDT',
    text: 'Choose BSC, Polygon or Tron and send USDT to your personal deposit address or scan its QR code. It is credited once the network confirms it.',
  },
  {
    icon: TrendingUp,
    title: 'Stake and earn daily',
    text: `Stake from $${RATES.stakeMin} in steps of $${RATES.stakeStep}. ROI is credited every day from the next UTC day, and you can withdraw your income from $${RATES.withdrawMin}.`,
  },
];

export function HowToStart() {
  return (
    <Section
      id="HowStart"
      eyebrow="How to Start"
      title="Three steps to your first daily reward"
      subtitle="No wallet connection, no approvals to sign: you send USDT to your own deposit address and the app does the rest."
    >
      <ol className="relative grid gap-4 md:grid-cols-3 md:gap-6">
        <div aria-hidden className="absolute left-[16%] right-[16%] top-10 hidden border-t border-dashed border-brand-500/30 md:block" />
        {STEPS.map((s, i) => (
          <li key={s.title} className="relative rounded-2xl border border-white/5 bg-surface-800/70 p-6 text-left md:text-center">
            <div className="flex items-center gap-4 md:flex-col md:gap-3">
              <span className="relative flex h-14 w-14 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-400 to-brand-600 text-white shadow-lg shadow-brand-500/30 md:ring-8 md:ring-surface-950">
                <s.icon className="h-6 w-6" aria-hidden />
                <span className="absolute -right-2 -top-2 flex h-6 w-6 items-center justify-center rounded-full bg-surface-950 text-xs font-bold text-brand-300 ring-1 ring-brand-500/40">
                  {i + 1}
                </span>
              </span>
              <h3 className="text-lg font-semibold text-white">{s.title}</h3>
            </div>
            <p className="mt-3 text-sm leading-relaxed text-slate-400">{s.text}</p>
          </li>
        ))}
      </ol>
      <div className="mt-10 text-center">
        <CreateAccountLink className="inline-flex items-center gap-2 rounded-xl border border-brand-500/50 px-5 py-3 text-sm font-semibold text-brand-300 transition hover:bg-brand-500/10" />
      </div>
    </Section>
  );
}
