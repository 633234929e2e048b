import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export function StatCard({
  label,
  value,
  icon: Icon,
  action,
  testId,
  note,
}: {
  label: string;
  value: ReactNode;
  icon?: LucideIcon;
  action?: ReactNode;
  testId?: string;
  note?: ReactNode;
}) {
  return (
    <div className="card">
      <div className="flex items-center gap-2 text-xs text-slate-400">
        {Icon ? <Icon className="h-4 w-4 text-brand-400" aria-hidden /> : null}
        {label}
      </div>
      <p className="mt-1.5 text-xl font-bold text-white" data-testid={testId}>
        {value}
      </p>
      {note}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
