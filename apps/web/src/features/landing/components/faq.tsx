import { ChevronDown } from 'lucide-react';
import { RATES } from '../content';
import { Section } from './section';

export const FAQ_ITEMS = [
  {
    q: 'How do I start earning?',
    a: `Create an account, deposit USDT on BSC, Polygon or Tron, then stake at least $${RATES.stakeMin} (in multiples of $${RATES.stakeStep}). Your stake earns its first daily ROI on the next UTC day.`,
  },
  {
    q: 'How much does a stake earn?',
    a: `Each stake earns ${RATES.dailyRoiPercent}% of its amount per full UTC day until its total ROI reaches ${RATES.capPercent}% of the amount, after about ${RATES.daysToCap} days; then it is completed. Your principal is part of that ${RATES.capPercent}% and is not returned separately. A stake keeps the rate it was made with.`,
  },
  {
    q: 'Which networks can I deposit on?',
    a: 'USDT on BNB Smart Chain (BEP20), Polygon and Tron (TRC20). Send only USDT, on the network you selected: other tokens or networks cannot be credited and may be lost.',
  },
  {
    q: 'How do referral and reward income work?',
    a: `Share your referral link: you receive ${RATES.referralPercent}% of every stake your direct referrals make. Reward levels L1 to L7 pay a one-time bonus when your own and your directs’ total staked reach each level.`,
  },
  {
    q: 'How do withdrawals work?',
    a: `Withdraw your income balance from $${RATES.withdrawMin}, in multiples of $${RATES.withdrawStep}, to your own BSC, Polygon or Tron address. A ${RATES.withdrawFeePercent}% fee is kept and you receive the rest. Each request is reviewed before it is paid out; if it is refused, the full amount returns to your balance.`,
  },
  {
    q: 'Is my money safe?',
    a: 'Every movement is recorded in a double-entry ledger whose books are checked to add up, and no balance can go below zero. Still, crypto and staking carry risk, and returns are not guaranteed: only stake what you can afford to lose.',
  },
] as const;

/** Six questions as native disclosure elements sharing a name: one open at a time, keyboard friendly, no script. */
export function Faq() {
  return (
    <Section id="FAQ" eyebrow="FAQ" title="Questions, answered" subtitle="Anything else? Once signed in, you can open a support ticket from your account.">
      <div className="mx-auto max-w-3xl space-y-3">
        {FAQ_ITEMS.map((item) => (
          <details
            key={item.q}
            name="faq"
            data-testid="faq-item"
            className="group rounded-2xl border border-white/5 bg-surface-800/60 transition-colors open:border-brand-500/20 open:bg-surface-800"
          >
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 font-semibold text-white outline-none focus-visible:ring-2 focus-visible:ring-brand-400 [&::-webkit-details-marker]:hidden">
              {item.q}
              <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-white/5 text-brand-300 transition-transform group-open:rotate-180 motion-reduce:transition-none">
                <ChevronDown className="h-4 w-4" aria-hidden />
              </span>
            </summary>
            <p className="px-5 pb-5 text-sm leading-relaxed text-slate-300">{item.a}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}
