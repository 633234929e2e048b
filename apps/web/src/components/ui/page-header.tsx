import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function PageHeader({ title, subtitle, action }: { title: string; subtitle?: string; action?: ReactNode }) {
  return (
    <header className="mb-4 flex items-start justify-between gap-3">
      <div>
        <h1 className="text-xl font-bold text-white sm:text-2xl">{title}</h1>
        {subtitle ? <p className="mt-0.5 text-sm text-slate-400">{subtitle}</p> : null}
      </div>
      {action}
    </header>
  );
}

/** The way back from a detail page, for the header's action. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="-my-3 inline-flex min-h-11 min-w-11 items-center gap-1 rounded-lg px-1 text-sm text-slate-300 hover:text-white">
      <ArrowLeft className="h-4 w-4" aria-hidden /> {children}
    </Link>
  );
}
