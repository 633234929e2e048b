import type * as Sonner from 'sonner';
import type { ExternalToast } from 'sonner';

/*
 * sonner's toast for the code a signed-in screen runs before its data shows (the API client, the
 * dashboard): the library loads with the first toast instead of with the screen, keeping the
 * JavaScript before the balance within its budget (e2e/bundle-size). The toast region itself is
 * mounted by root-route.tsx as before; the same module instance holds the toasts either way.
 */
let sonner: Promise<typeof Sonner> | undefined;
const load = () => (sonner ??= import('sonner'));

const raise =
  (kind: 'success' | 'error' | 'info') =>
  (message: string, data?: ExternalToast): void =>
    void load().then(({ toast }) => toast[kind](message, data));

export const toast = { success: raise('success'), error: raise('error'), info: raise('info') };
