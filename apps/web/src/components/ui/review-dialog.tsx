import { useRef, useState, type ReactNode } from 'react';
import { Button } from './button';
import { Modal } from './modal';

export interface ReviewRow {
  label: string;
  value: ReactNode;
  /** The line the person should read twice (what they receive, the recipient). */
  strong?: boolean;
}

/**
 * The step between a money form and its call: what will move, to whom, at what cost, on what terms.
 *
 * Confirm is single-flight: the first press marks the call under way in a ref before `onConfirm`
 * starts and disables the buttons at once, so a double click, two clicks in one frame or a held
 * Enter cannot start a second call before `busy` (the mutation's isPending) reaches the render.
 * The mark clears when the promise `onConfirm` returns settles. The dialog stays mounted while
 * closed, so a review reopened while a call is still running cannot confirm until it ends.
 */
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
  /** Runs the call; the promise settling (fulfilled or rejected) is what ends the single flight. */
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const inFlight = useRef(false);
  const [running, setRunning] = useState(false);
  const blocked = busy || running;

  const confirm = () => {
    if (!open || busy || inFlight.current) return;
    inFlight.current = true;
    setRunning(true);
    const release = () => {
      inFlight.current = false;
      setRunning(false);
    };
    let call: Promise<unknown>;
    try {
      call = onConfirm();
    } catch (err) {
      release();
      throw err;
    }
    void Promise.resolve(call).then(release, release);
  };
  // Back is disabled while the call runs; Escape and the overlay wait for it too.
  const close = () => {
    if (!busy && !inFlight.current) onClose();
  };

  return (
    <Modal open={open} onClose={close} title={title} description="Check the details before you confirm.">
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
          <Button variant="secondary" onClick={close} disabled={blocked}>
            Back
          </Button>
          <Button onClick={confirm} disabled={blocked} aria-busy={blocked || undefined}>
            {blocked ? busyLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * The dialog's state for a value waiting to be confirmed: open while there is one, Back clears it,
 * Confirm runs `confirm` (its promise is the dialog's single flight); busy while the call is under way.
 */
export function reviewState<T>(review: T | null, setReview: (value: null) => void, confirm: () => Promise<void>, busy: boolean) {
  return { open: review !== null, onClose: () => setReview(null), onConfirm: confirm, busy };
}
