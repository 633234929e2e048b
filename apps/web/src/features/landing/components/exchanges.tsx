import { Info } from 'lucide-react';
import { CHAINS, EXCHANGES } from '../content';
import { ChainLogo, Monogram } from './brand';
import { Section } from './section';

/** Anchor #chains: the three deposit networks and where to buy USDT for them. */
export function Exchanges() {
  return (
    <Section
      id="chains"
      tinted
      eyebrow="Chains and exchanges"
      title="Deposit on the network you already use"
      subtitle="Buy USDT on any major exchange and send it on BNB Smart Chain, Polygon or Tron. Each deposit gets a fresh address and QR code."
    >
      <div className="grid gap-4 md:grid-cols-3">
        {CHAINS.map((c) => (
          <article key={c.id} className="rounded-2xl border border-white/5 bg-surface-800/70 p-6 transition hover:border-white/10">
            <div className="flex items-center gap-3">
              <ChainLogo id={c.id} className="h-11 w-11" />
              <div>
                <h3 className="text-lg font-bold text-white">{c.name}</h3>
                <p className="text-xs font-semibold uppercase tracking-wide text-slate-400">USDT · {c.standard}</p>
              </div>
            </div>
            <p className="mt-4 text-sm leading-relaxed text-slate-400">{c.text}</p>
          </article>
        ))}
      </div>

      <h3 className="mb-4 mt-12 text-center text-sm font-semibold uppercase tracking-wide text-slate-400">Buy USDT on any major exchange</h3>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {EXCHANGES.map((e) => (
          <li
            key={e.name}
            className="flex items-center gap-3 rounded-xl border border-white/5 bg-surface-800/50 px-4 py-3 text-sm font-semibold text-slate-200"
          >
            <Monogram brand={e} />
            {e.name}
          </li>
        ))}
      </ul>
      <p className="mx-auto mt-6 flex max-w-2xl items-start gap-2 rounded-xl border border-gold-400/20 bg-gold-400/5 p-4 text-sm text-slate-300">
        <Info className="mt-0.5 h-4 w-4 shrink-0 text-gold-400" aria-hidden />
        When you withdraw from an exchange, pick the same network you chose in the app. USDT sent on another network, or any other token, cannot be credited.
      </p>
    </Section>
  );
}
