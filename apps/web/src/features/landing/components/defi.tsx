import { ArrowLeftRight, Gift, Layers, Users } from 'lucide-react';
import { RATES, REWARD_LEVELS, TOP_REWARD } from '../content';
import { IconTile } from './icon-tile';
import { Section } from './section';

const n = new Intl.NumberFormat('en-US');
const STREAMS = [
  {
    icon: Layers,
    title: 'Staking ROI',
    text: `Each stake earns ${RATES.dailyRoiPercent}% of its amount a day until it has paid ${RATES.capPercent}%, and keeps the terms it was made with.`,
  },
  { icon: Users, title: 'Direct referral income', text: `${RATES.referralPercent}% of every stake your direct referrals make, credited to you at once.` },
  {
    icon: Gift,
    title: 'Reward levels',
    text: `Seven levels, L1 to L7, each paid once: from $${n.format(REWARD_LEVELS[0].reward)} up to $${n.format(TOP_REWARD)}.`,
  },
  { icon: ArrowLeftRight, title: 'Member transfers', text: `Send USDT to another member by username, from $${RATES.transferMin}, with no fee.` },
];

// The figures align right; the outer columns get the card's wider padding.
const LEVEL_HEADS = [
  ['Level', 'px-5 py-3 font-semibold'],
  ['Self', 'px-3 py-3 text-right font-semibold'],
  ['Directs', 'px-3 py-3 text-right font-semibold'],
  ['Reward', 'px-5 py-3 text-right font-semibold'],
] as const;

export function Defi() {
  return (
    <Section
      id="defi"
      eyebrow="DeFi ecosystem"
      title="Four ways your balance grows"
      subtitle="One account, three income streams, and instant transfers between members."
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STREAMS.map((s) => (
          <article
            key={s.title}
            className="flex gap-4 rounded-2xl border border-white/5 bg-surface-800/70 p-5 transition sm:block sm:p-6 hover:-translate-y-0.5 hover:border-gold-400/20 motion-reduce:hover:translate-y-0"
          >
            <IconTile icon={s.icon} className="bg-gold-400/10 text-gold-400" />
            <div>
              <h3 className="font-semibold text-white sm:mt-4">{s.title}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-slate-400 sm:mt-2">{s.text}</p>
            </div>
          </article>
        ))}
      </div>

      <div className="mt-10 overflow-hidden rounded-2xl border border-white/5 bg-surface-800/60">
        <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-white/5 px-5 py-4">
          <h3 className="font-semibold text-white">Reward levels</h3>
          <p className="text-xs text-slate-400">Self and direct investment are your and your directs’ all-time total staked.</p>
        </div>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[20rem] text-sm">
            <thead>
              <tr className="text-left text-xs uppercase tracking-wide text-slate-400">
                {LEVEL_HEADS.map(([label, className]) => (
                  <th key={label} scope="col" className={className}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-white/5 tabular-nums">
              {REWARD_LEVELS.map((l) => (
                <tr key={l.level}>
                  <th scope="row" className="px-5 py-2.5 text-left font-semibold text-white">
                    L{l.level}
                  </th>
                  <td className="px-3 py-2.5 text-right text-slate-300">${n.format(l.self_investment)}</td>
                  <td className="px-3 py-2.5 text-right text-slate-300">${n.format(l.direct_investment)}</td>
                  <td className="px-5 py-2.5 text-right font-semibold text-gold-400">${n.format(l.reward)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </Section>
  );
}
