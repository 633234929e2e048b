import { KeyRound } from 'lucide-react';
import { WALLETS } from '../content';
import { Monogram } from './brand';
import { Section } from './section';

export function Wallets() {
  return (
    <Section
      id="wallet"
      eyebrow="Wallets"
      title="Send from the wallet you trust"
      subtitle="Any wallet that holds USDT on BSC, Polygon or Tron can fund your account."
    >
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {WALLETS.map((w) => (
          <li key={w.name} className="flex flex-col gap-3 rounded-2xl border border-white/5 bg-surface-800/70 p-4 sm:flex-row sm:items-center">
            <Monogram brand={w} className="h-11 w-11 rounded-xl text-sm" />
            <div className="min-w-0">
              <p className="font-semibold leading-snug text-white">{w.name}</p>
              <p className="mt-1 flex flex-wrap gap-1">
                {w.chains.map((c) => (
                  <span key={c} className="rounded-md bg-white/5 px-1.5 py-0.5 text-[11px] font-medium text-slate-300">
                    {c}
                  </span>
                ))}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <div className="mx-auto mt-8 flex max-w-2xl items-start gap-3 rounded-2xl border border-brand-500/20 bg-brand-500/5 p-5">
        <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-brand-300" aria-hidden />
        <p className="text-sm leading-relaxed text-slate-300">
          <span className="font-semibold text-white">Your keys stay yours.</span> We never ask you to connect a wallet, sign an approval or share a seed phrase.
          Anyone who asks for it is not us.
        </p>
      </div>
    </Section>
  );
}
