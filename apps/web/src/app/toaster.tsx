import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@app/core/constants';

/** The app's one toast region (sonner), loaded with the first screen that can raise a toast. */
export function AppToaster() {
  return <Toaster position="top-center" duration={TOAST_DURATION_MS} visibleToasts={TOAST_VISIBLE} theme="dark" richColors closeButton />;
}
