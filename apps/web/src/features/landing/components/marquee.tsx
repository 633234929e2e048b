import type { ReactNode } from 'react';

/** An endless row: the items twice in a strip that slides by half its width. */
export function Marquee({ items, reverse }: { items: ReactNode[]; reverse?: boolean }) {
  return (
    <div className="relative overflow-hidden py-3 [mask-image:linear-gradient(to_right,transparent,black_10%,black_90%,transparent)]">
      <div className={`flex w-max gap-4 motion-safe:animate-marquee ${reverse ? '[animation-direction:reverse]' : ''}`}>
        {[...items, ...items].map((item, i) => (
          <div key={i} aria-hidden={i >= items.length} className="flex shrink-0 items-center gap-2 rounded-xl border border-white/5 bg-surface-800/70 px-4 py-2.5 text-sm font-medium text-slate-200">
            {item}
          </div>
        ))}
      </div>
    </div>
  );
}
