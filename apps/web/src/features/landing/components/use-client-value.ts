import { useSyncExternalStore } from 'react';

const noSubscribe = () => () => {};

/**
 * A value only the browser knows (local storage, media queries), read so the page pre-rendered at
 * build time hydrates without a mismatch: hydration renders `serverValue`, as the build did, and
 * React re-renders with the browser's value right after. A fresh client render reads it at once.
 */
export function useClientValue<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(noSubscribe, read, () => serverValue);
}
