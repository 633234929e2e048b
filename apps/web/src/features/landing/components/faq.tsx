import { ChevronDown } from 'lucide-react';

export const FAQ_ITEMS = [
  {
    q: 'How do I start earning?',
    a: 'Create an account, deposit USDT on BSC, Polygon or Tron, then stake at least $50 (in multiples of $10). Your stake earns its daily ROI from the next UTC day.',
  },
  {
    q: 'How much does a stake earn?',
    a: 'Each stake earns 0.5% of its amount per full UTC day until its total ROI reaches 200% of the amount; then it is completed. A stake keeps the rate it was bought with.',
  },
  {
    q: 'Which networks can I deposit on?',
    a: 'USDT on BNB Smart Chain (BEP20), Polygon and Tron (TRC20). Send only USDT on the network you selected: other assets or networks can be lost.',
  },
  {
    q: 'How do referral and reward income work?',
    a: 'Share your referral link: you receive 5% of every stake your direct referrals make. Reward levels L1 to L7 pay a one-time bonus when your own and your directs’ investment reach each level.',
  },
  {
    q: 'How do withdrawals work?',
    a: 'Withdraw your income balance from $10, in multiples of $10, to your own BSC, Polygon or Tron address. A 5% fee is kept and you receive 95%. Requests are reviewed and paid out by the team.',
  },
  {
    q: 'Is my money safe?',
    a: 'Every movement is recorded in a double-entry ledger that is checked continuously, and no balance can go below zero. Still, staking carries risk: only stake what you can afford to lose, and read the disclaimer.',
  },
];

/** The FAQ as native disclosure elements: keyboard friendly with no script. */
export function Faq() {
  return (
    <div className="mx-auto max-w-3xl space-y-3">
      {FAQ_ITEMS.map((item) => (
        <details key={item.q} data-testid="faq-item" className="group rounded-2xl border border-white/5 bg-surface-800/70 p-4 open:bg-surface-800">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-3 font-semibold text-white">
            {item.q}
            <ChevronDown className="h-4 w-4 shrink-0 text-brand-300 transition group-open:rotate-180" aria-hidden />
          </summary>
          <p className="mt-3 text-sm leading-relaxed text-slate-300">{item.a}</p>
        </details>
      ))}
    </div>
  );
}
