import { useSyncExternalStore } from 'react';

const noSubscribe = () => () => {};

/**
 * false while React hydrates HTML pre-rendered at build time (as the build rendered it, so no
 * mismatch), true right after and on every fresh client render.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}
