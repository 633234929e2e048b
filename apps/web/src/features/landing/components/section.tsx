import type { ReactNode } from 'react';

export function Section({ id, eyebrow, title, subtitle, children }: { id: string; eyebrow?: string; title: string; subtitle?: string; children: ReactNode }) {
  return (
    <section id={id} className="scroll-mt-20 px-4 py-16 sm:py-20">
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto mb-10 max-w-2xl text-center">
          {eyebrow ? <p className="text-xs font-semibold uppercase tracking-[0.2em] text-brand-400">{eyebrow}</p> : null}
          <h2 className="mt-2 text-3xl font-bold text-white sm:text-4xl">{title}</h2>
          {subtitle ? <p className="mt-3 text-slate-400">{subtitle}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}
