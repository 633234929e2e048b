import clsx from 'clsx';
import type { ReactNode } from 'react';

/**
 * A landing section: its id is the anchor the navbar links to; scroll-mt keeps the title clear of
 * the fixed navbar. Below the first screen the browser skips a section's layout and paint until it
 * comes near the viewport (content-visibility): the whole page is in the HTML, and laying out
 * 10,000 px of it at once was a long task on a slow phone. A jump to an anchor lays them all out
 * first (behaviour.ts adds .landing-full), or the estimated heights would miss the target.
 */
export function Section({
  id,
  eyebrow,
  title,
  subtitle,
  tinted,
  children,
}: {
  id?: string;
  eyebrow?: string;
  title: ReactNode;
  subtitle?: ReactNode;
  tinted?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      className={clsx(
        'scroll-mt-16 px-4 py-16 [contain-intrinsic-size:auto_900px] [content-visibility:auto] sm:py-24 [.landing-full_&]:[content-visibility:visible]',
        tinted && 'border-y border-white/5 bg-surface-900/60',
      )}
    >
      <div className="mx-auto max-w-6xl">
        <header className="mx-auto mb-10 max-w-2xl text-center sm:mb-14">
          {eyebrow ? <p className="text-xs font-semibold uppercase tracking-[0.2em] text-brand-400">{eyebrow}</p> : null}
          <h2 className="mt-3 text-balance text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h2>
          {subtitle ? <p className="mt-4 text-pretty text-slate-400 sm:text-lg">{subtitle}</p> : null}
        </header>
        {children}
      </div>
    </section>
  );
}
