import { useSyncExternalStore } from 'react';

/*
 * Whether the toast region is wanted yet. The landing page's first paint must not wait for sonner,
 * so the region mounts (at the root, above every route) once the app's providers have loaded; from
 * then on it stays mounted, so a toast raised just before a move to / ('Logged out successfully')
 * is still shown there instead of vanishing with the screen that raised it.
 */
let wanted = false;
const listeners = new Set<() => void>();

export function wantToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const l of listeners) l();
}

export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => wanted,
    () => false,
  );
}
