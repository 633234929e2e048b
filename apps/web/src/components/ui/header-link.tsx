import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A page header's action that leads to a related page (its history, the dashboard): an outlined 44 px link with an icon. */
export function HeaderLink({ to, icon: Icon, children }: { to: string; icon: LucideIcon; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-11 shrink-0 items-center gap-1 rounded-xl border border-white/10 px-3 py-2 text-sm font-semibold text-slate-200 hover:bg-white/5"
    >
      <Icon className="h-4 w-4" aria-hidden /> {children}
    </Link>
  );
}
