import clsx from 'clsx';
import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'outline';
const VARIANTS: Record<Variant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 shadow-lg shadow-brand-500/20',
  secondary: 'bg-surface-700 text-slate-100 hover:bg-surface-600',
  outline: 'border border-brand-500/60 text-brand-300 hover:bg-brand-500/10',
  ghost: 'text-slate-300 hover:bg-white/5',
  // White on red-500 was 3.8:1 (the Block button of /admin/users/:id); on red-700 it is 6.4:1.
  danger: 'bg-red-700 text-white hover:bg-red-800',
};

export function Button({ variant = 'primary', className, type = 'button', ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type={type}
      className={clsx(
        'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400 disabled:cursor-not-allowed disabled:opacity-50',
        VARIANTS[variant],
        className,
      )}
      {...props}
    />
  );
}
