import { user } from '@app/core/contracts/user';
import { dehydrate, hydrate, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { queryKeys } from './query-keys';
import { storage } from './storage';

/**
 * The reads kept on this device, so the signed-in app opened offline shows the last balance (issue
 * 32): the dashboard's and the wallet's. Each comes back only if it still matches its contract, so
 * an answer saved by an older build is dropped instead of breaking the screen. Nothing else is
 * kept: no token (the key lives in storage.ts and goes with the session), no history, no security data.
 */
const KEPT: readonly { key: readonly unknown[]; data: z.ZodType }[] = [
  { key: queryKeys.userInfo, data: user.info.data },
  { key: queryKeys.wallet, data: user.wallet.data },
];
/** Older than this, a saved answer is not shown at all. */
const MAX_AGE_MS = 7 * 86_400_000;
/** Saves are grouped: one write per second at most. */
const SAVE_EVERY_MS = 1_000;

const kept = (queryKey: readonly unknown[]) => KEPT.find((k) => JSON.stringify(k.key) === JSON.stringify(queryKey));

/** Puts the saved answers back into `client` (at once, before the first screen renders), then keeps saving them. */
export function persistQueries(client: QueryClient): void {
  // Not while the build pre-renders pages (no browser, no device to keep anything on).
  if (typeof window === 'undefined') return;
  restore(client);
  let timer: ReturnType<typeof setTimeout> | undefined;
  client.getQueryCache().subscribe((event) => {
    if (timer !== undefined || !kept(event.query.queryKey)) return;
    timer = setTimeout(() => {
      timer = undefined;
      save(client);
    }, SAVE_EVERY_MS);
  });
}

function save(client: QueryClient): void {
  // Signed out meanwhile: the session's copy was removed with it and must not come back.
  if (!storage.getToken()) return;
  const state = dehydrate(client, { shouldDehydrateQuery: (q) => q.state.status === 'success' && kept(q.queryKey) !== undefined });
  try {
    storage.setQueryCache(JSON.stringify({ savedAt: Date.now(), state }));
  } catch {
    // Storage full or refused (private mode): the app works as before, without the offline copy.
  }
}

type Saved = { savedAt?: number; state?: ReturnType<typeof dehydrate> } | null;

function readSaved(): Saved {
  try {
    return JSON.parse(storage.getQueryCache() ?? 'null') as Saved;
  } catch {
    return null;
  }
}

function restore(client: QueryClient): void {
  if (!storage.getToken()) return;
  const saved = readSaved();
  if (!saved?.state || typeof saved.savedAt !== 'number' || Date.now() - saved.savedAt > MAX_AGE_MS) return;
  const queries = saved.state.queries.filter((q) => kept(q.queryKey)?.data.safeParse(q.state.data).success === true);
  hydrate(client, { mutations: [], queries });
  // Shown while the screen asks again, never taken as fresh: the first screen to read one refreshes it.
  for (const q of queries) client.getQueryCache().find({ queryKey: q.queryKey, exact: true })?.invalidate();
}
