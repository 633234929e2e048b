import clsx from 'clsx';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role="status" className={clsx('inline-flex items-center gap-2 text-slate-400', className)}>
      <span className="h-5 w-5 animate-spin rounded-full border-2 border-brand-500/30 border-t-brand-500" aria-hidden />
      {label ? <span className="text-sm">{label}</span> : <span className="sr-only">Loading</span>}
    </span>
  );
}
