import type { ReactNode } from 'react';

/**
 * An endless row: the list twice in a strip that slides by half its width (animate-marquee), so the
 * second copy takes the first one's place without a jump. With reduced motion it is a still, wrapped list.
 */
export function Marquee({ items, reverse, label }: { items: { key: string; node: ReactNode }[]; reverse?: boolean; label: string }) {
  return (
    <div
      role="list"
      aria-label={label}
      className="group relative overflow-hidden py-2 [mask-image:linear-gradient(to_right,transparent,black_8%,black_92%,transparent)] motion-reduce:[mask-image:none]"
    >
      <div
        className={`flex w-max gap-3 motion-safe:animate-marquee group-hover:[animation-play-state:paused] motion-reduce:w-full motion-reduce:flex-wrap motion-reduce:justify-center ${reverse ? '[animation-direction:reverse]' : ''}`}
      >
        {[...items, ...items].map((item, i) => {
          const copy = i >= items.length;
          return (
            <div
              key={`${item.key}-${copy ? 'b' : 'a'}`}
              role={copy ? undefined : 'listitem'}
              aria-hidden={copy || undefined}
              className={`flex shrink-0 items-center gap-2.5 rounded-xl border border-white/5 bg-surface-800/70 px-4 py-2.5 text-sm font-medium text-slate-200 ${copy ? 'motion-reduce:hidden' : ''}`}
            >
              {item.node}
            </div>
          );
        })}
      </div>
    </div>
  );
}
