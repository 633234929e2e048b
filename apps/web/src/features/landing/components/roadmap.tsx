import clsx from 'clsx';
import { Check, Clock } from 'lucide-react';
import { ROADMAP } from '../content';
import { Section } from './section';

/** Nov 2024 to Q2 2025: a vertical line on phones, a grid of milestones on wider screens. */
export function Roadmap() {
  return (
    <Section id="Roadmap" tinted eyebrow="Roadmap" title="Where we have been, where we are going" subtitle="From our launch in Nov 2024 to Q2 2025.">
      <ol className="relative mx-auto max-w-md space-y-5 border-l border-brand-500/30 pl-7 md:grid md:max-w-none md:grid-cols-3 md:gap-5 md:space-y-0 md:border-l-0 md:pl-0">
        {ROADMAP.map((r) => (
          <li key={r.when} className="relative md:rounded-2xl md:border md:border-white/5 md:bg-surface-800/70 md:p-6">
            <span
              className={clsx(
                'absolute -left-[39px] top-0.5 flex h-6 w-6 items-center justify-center rounded-full ring-4 ring-surface-900 md:static md:mb-4 md:ring-0',
                r.done ? 'bg-brand-700 text-white' : 'bg-gold-400 text-surface-950',
              )}
            >
              {r.done ? <Check className="h-3.5 w-3.5" aria-hidden /> : <Clock className="h-3.5 w-3.5" aria-hidden />}
            </span>
            <p className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-brand-300">
              {r.when}
              <span
                className={clsx(
                  'rounded-full px-2 py-0.5 text-[10px] normal-case tracking-normal',
                  r.done ? 'bg-brand-500/10 text-brand-300' : 'bg-gold-400/10 text-gold-400',
                )}
              >
                {r.done ? 'Shipped' : 'In progress'}
              </span>
            </p>
            <h3 className="mt-1 text-lg font-semibold text-white">{r.title}</h3>
            <p className="mt-1 text-sm leading-relaxed text-slate-400">{r.text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}
