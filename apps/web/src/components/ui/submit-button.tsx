import type { ReactNode } from 'react';
import { Button } from './button';

/**
 * A form's full-width submit button: while `busy` it is disabled and says `busyLabel`, so a second
 * tap cannot send the form twice. `disabled` adds the form's own reasons to wait.
 */
export function SubmitButton({ busy, busyLabel, disabled = false, children }: { busy: boolean; busyLabel: string; disabled?: boolean; children: ReactNode }) {
  return (
    <Button type="submit" className="w-full" disabled={disabled || busy}>
      {busy ? busyLabel : children}
    </Button>
  );
}
