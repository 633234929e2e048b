import type { ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export interface ReviewRow {
  label: string;
  value: ReactNode;
  /** The line the person should read twice (what they receive, the recipient). */
  strong?: boolean;
}

/** The step between a money form and its call: what will move, to whom, at what cost, on what terms. */
export function ReviewDialog({
  open,
  title,
  rows,
  notes,
  children,
  confirmLabel,
  busy,
  busyLabel = 'Processing...',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  rows: ReviewRow[];
  /** What to read before confirming, under the rows (or as the children). */
  notes?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  busy: boolean;
  busyLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open={open} onClose={onClose} title={title} description="Check the details before you confirm.">
      <div data-testid="review-step">
        <dl className="space-y-2 rounded-xl bg-surface-900/70 p-3 text-sm">
          {rows.map((r) => (
            <div key={r.label} className="flex items-start justify-between gap-3">
              <dt className="shrink-0 text-slate-400">{r.label}</dt>
              <dd
                className={
                  r.strong
                    ? 'min-w-0 text-right [overflow-wrap:anywhere] font-semibold text-white'
                    : 'min-w-0 text-right [overflow-wrap:anywhere] text-slate-200'
                }
              >
                {r.value}
              </dd>
            </div>
          ))}
        </dl>
        {(notes ?? children) ? <div className="mt-3 space-y-1 text-xs text-slate-300">{notes ?? children}</div> : null}
        <div className="mt-4 grid grid-cols-2 gap-2">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Back
          </Button>
          <Button onClick={onConfirm} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * The dialog's state for a value waiting to be confirmed: open while there is one, Back clears it,
 * Confirm runs `confirm`; busy while the call is under way.
 */
export function reviewState<T>(review: T | null, setReview: (value: null) => void, confirm: () => Promise<void>, busy: boolean) {
  return { open: review !== null, onClose: () => setReview(null), onConfirm: () => void confirm(), busy };
}
