import type { TUserInfo } from '@app/core/contracts';
import { abbreviateAmount, formatAmount } from '@app/core/format';
import { microToNumber, toMicro } from '@app/core/money';
import { PiggyBank } from 'lucide-react';

const micro = (n: number) => toMicro(n) ?? 0n;

/**
 * "What do I have": the three balances added up (exactly, in micro-units), each named.
 * Deposit (for staking and transfers), Income (withdrawable) and Staked (locked).
 */
export function TotalAssets({ detail }: { detail: TUserInfo['user_detail'] }) {
  const total = microToNumber(micro(detail.deposit_balance) + micro(detail.balance) + micro(detail.total_staked));
  return (
    <section className="card" aria-labelledby="assets-title">
      <h2 id="assets-title" className="flex items-center gap-2 text-sm text-slate-400">
        <PiggyBank className="h-4 w-4 text-brand-400" aria-hidden /> Total assets
      </h2>
      <p className="mt-1 text-3xl font-bold text-white" data-testid="total-assets">
        ${abbreviateAmount(total)}
      </p>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-center" data-testid="assets-breakdown">
        {(
          [
            ['Deposit', detail.deposit_balance],
            ['Income', detail.balance],
            ['Staked', detail.total_staked],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-xl bg-surface-900/70 px-2 py-2">
            <dt className="text-xs text-slate-400">{label}</dt>
            <dd className="text-sm font-semibold text-slate-100">{` $${formatAmount(value)}`}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
