import { CHAINS, EXCHANGES, WALLETS } from '../content';
import { ChainLogo, Monogram } from './brand';
import { Marquee } from './marquee';

const NETWORKS = [
  {
    key: 'usdt',
    node: (
      <>
        <ChainLogo id="usdt" className="h-6 w-6" /> Tether USDT
      </>
    ),
  },
  ...CHAINS.map((c) => ({
    key: c.id,
    node: (
      <>
        <ChainLogo id={c.id} className="h-6 w-6" /> {c.name}
      </>
    ),
  })),
  ...WALLETS.slice(0, 6).map((w) => ({
    key: w.name,
    node: (
      <>
        <Monogram brand={w} className="h-6 w-6 text-[10px]" /> {w.name}
      </>
    ),
  })),
];
const VENUES = EXCHANGES.map((e) => ({
  key: e.name,
  node: (
    <>
      <Monogram brand={e} className="h-6 w-6 text-[10px]" /> {e.name}
    </>
  ),
}));

/** Two rows sliding in opposite directions: the networks and wallets, then the exchanges. */
export function Partners() {
  return (
    <section aria-labelledby="partners-title" className="border-y border-white/5 bg-surface-900/50 py-8">
      <h2 id="partners-title" className="mb-4 px-4 text-center text-xs font-semibold uppercase tracking-[0.2em] text-slate-400">
        Works with the networks, wallets and exchanges you already use
      </h2>
      {/* Kept narrower than one copy of each list, so the loop never shows a gap on wide screens. */}
      <div className="mx-auto max-w-6xl">
        <Marquee label="Networks and wallets" items={NETWORKS} />
        <Marquee label="Exchanges" items={VENUES} reverse />
      </div>
    </section>
  );
}
