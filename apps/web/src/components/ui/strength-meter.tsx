import { passwordStrength } from '@app/core/format';
import clsx from 'clsx';

const COLORS = ['bg-red-500', 'bg-red-500', 'bg-amber-500', 'bg-amber-500', 'bg-emerald-500', 'bg-emerald-500'];

/** Score 0..5: length ≥ 8, uppercase, lowercase, digit, other symbol (spec section 5). */
export function StrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const { score, label } = passwordStrength(password);
  return (
    <div className="mt-2" aria-live="polite">
      <div className="flex gap-1" aria-hidden>
        {[0, 1, 2, 3, 4].map((i) => (
          <span key={i} className={clsx('h-1.5 flex-1 rounded-full', i < score ? COLORS[score] : 'bg-surface-600')} />
        ))}
      </div>
      <p className={clsx('mt-1 text-xs', score < 2 ? 'text-red-400' : score <= 3 ? 'text-amber-400' : 'text-emerald-400')}>{label}</p>
    </div>
  );
}
