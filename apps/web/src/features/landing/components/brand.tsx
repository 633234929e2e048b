import clsx from 'clsx';
import type { Brand, Chain } from '../content';

/** The product's wordmark (the favicon is its mark). */
export function Wordmark({ className }: { className?: string }) {
  return (
    <span className={clsx('flex items-center gap-2 font-bold tracking-tight text-white', className)}>
      <img src="/favicon.svg" alt="" width={32} height={32} className="h-8 w-8" />
      <span>
        USDT<span className="text-brand-400">Stake</span>
        <span className="sr-only"> home</span>
      </span>
    </span>
  );
}

export function ChainLogo({ id, className }: { id: Chain['id'] | 'usdt'; className?: string }) {
  return <img src={`/landing/${id}.svg`} alt="" width={32} height={32} className={clsx('shrink-0 rounded-full', className ?? 'h-8 w-8')} />;
}

/** A tile with the brand's initials in its colour, instead of loading a third-party logo. */
export function Monogram({ brand, className }: { brand: Brand; className?: string }) {
  const initials = brand.name
    .split(/[\s.]+/)
    .slice(0, 2)
    .map((w) => w[0])
    .join('');
  return (
    <span
      aria-hidden
      className={clsx('flex shrink-0 items-center justify-center rounded-lg text-xs font-extrabold', className ?? 'h-8 w-8')}
      style={{ backgroundColor: brand.color, color: brand.ink ?? '#fff' }}
    >
      {initials}
    </span>
  );
}
