import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** The heading row of a card on /security. */
export function SectionTitle({
  id,
  icon: Icon,
  title,
  subtitle,
  badge,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  subtitle?: string;
  badge?: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-xl bg-surface-700 text-brand-300">
        <Icon className="h-4 w-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h2 id={id} className="text-base font-semibold text-white">
            {title}
          </h2>
          {badge}
        </div>
        {subtitle ? <p className="mt-0.5 text-sm text-slate-400">{subtitle}</p> : null}
      </div>
    </div>
  );
}
