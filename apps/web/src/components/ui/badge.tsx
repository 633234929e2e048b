import clsx from 'clsx';
import type { ReactNode } from 'react';

/**
 * A badge's colours. Grey is `neutral` (there was a `secondary` too, the same grey under a second
 * name). Which status gets which tone is decided in lib/status-presentation.ts, nowhere else.
 */
export type BadgeTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral' | 'purple' | 'pink';
const TONES: Record<BadgeTone, string> = {
  success: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/30',
  warning: 'bg-amber-500/15 text-amber-300 ring-amber-500/30',
  danger: 'bg-red-500/15 text-red-300 ring-red-500/30',
  info: 'bg-sky-500/15 text-sky-300 ring-sky-500/30',
  neutral: 'bg-slate-500/15 text-slate-300 ring-slate-500/30',
  purple: 'bg-purple-500/15 text-purple-300 ring-purple-500/30',
  pink: 'bg-pink-500/15 text-pink-300 ring-pink-500/30',
};

/** A badge shows its words as written (no case change): "Partially paid", not "Partially Paid". */
export function Badge({
  tone = 'neutral',
  children,
  className,
  ...rest
}: {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
  'data-status'?: string;
  'data-kind'?: string;
}) {
  return (
    <span
      className={clsx('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[tone], className)}
      data-tone={tone}
      {...rest}
    >
      {children}
    </span>
  );
}
