import { Layers, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';

const TITLES = {
  deposit: (
    <>
      <Wallet className="h-4 w-4 text-brand-400" aria-hidden /> Deposit Balance
    </>
  ),
  staking: (
    <>
      <Layers className="h-4 w-4 text-gold-400" aria-hidden /> My staking
    </>
  ),
};

/** One of the dashboard's two balance cards, titled; the page and its skeleton share it so that they keep the same frame. */
export function BalanceCard({ kind, children }: { kind: keyof typeof TITLES; children: ReactNode }) {
  return (
    <section className="card">
      <div className="flex items-center gap-2 text-sm text-slate-400">{TITLES[kind]}</div>
      {children}
    </section>
  );
}
