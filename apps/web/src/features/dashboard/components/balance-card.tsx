import { Layers, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';

const TITLES = {
  deposit: { Icon: Wallet, iconClassName: 'h-4 w-4 text-brand-400', label: 'Deposit Balance' },
  staking: { Icon: Layers, iconClassName: 'h-4 w-4 text-gold-400', label: 'My staking' },
};

/** One of the dashboard's two balance cards, titled; the page and its skeleton share it so that they keep the same frame. */
export function BalanceCard({ kind, children }: { kind: keyof typeof TITLES; children: ReactNode }) {
  const { Icon, iconClassName, label } = TITLES[kind];
  return (
    <section className="card">
      <div className="flex items-center gap-2 text-sm text-slate-400">
        <Icon className={iconClassName} aria-hidden /> {label}
      </div>
      {children}
    </section>
  );
}
