import * as Dialog from '@radix-ui/react-dialog';
import clsx from 'clsx';
import { useRef, type ReactNode } from 'react';

/**
 * A dialog with the spec's transitions (panel 300 ms, backdrop 150 ms). Clicking the overlay or
 * pressing Escape closes it. Radix Dialog keeps focus inside while it is open (Tab cannot walk
 * into the page behind), hides the page from screen readers, and returns focus to the control
 * that opened it on close.
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  children,
  className,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  className?: string;
}) {
  // Radix returns focus to its own Trigger; these dialogs open from ordinary buttons, so remember
  // whichever control had focus and give it back on close.
  const returnTo = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay
          data-testid="modal-overlay"
          className="fixed inset-0 z-50 flex items-end justify-center overflow-y-auto bg-black/70 p-4 backdrop-blur-sm data-[state=closed]:animate-[overlay-out_150ms_ease-in] data-[state=open]:animate-[overlay-in_150ms_ease-out] sm:items-center"
        >
          <Dialog.Content
            {...(description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={() => {
              returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            }}
            onCloseAutoFocus={(e) => {
              if (returnTo.current?.isConnected) {
                e.preventDefault();
                returnTo.current.focus();
              }
            }}
            className={clsx(
              'relative z-10 max-h-[90dvh] w-full max-w-lg overflow-y-auto rounded-2xl border border-white/10 bg-surface-800 p-5 shadow-2xl outline-none data-[state=closed]:animate-[panel-out_150ms_ease-in] data-[state=open]:animate-[panel-in_300ms_ease-out]',
              className,
            )}
          >
            <Dialog.Title className="text-lg font-semibold text-white">{title}</Dialog.Title>
            {description ? <Dialog.Description className="mt-1 break-words text-sm text-slate-400">{description}</Dialog.Description> : null}
            <div className="mt-4">{children}</div>
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
