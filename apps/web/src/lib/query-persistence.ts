import { user } from '@app/core/contracts/user';
import { dehydrate, hydrate, type Query, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError } from './api-client';
import { keyOf } from './query-keys';
import { storage } from './storage';

/**
 * The reads kept on this device, so the signed-in app opened offline shows the last balance (issue
 * 32): the dashboard's and the wallet's. Each comes back only if it still matches its contract, so
 * an answer saved by an older build is dropped instead of breaking the screen. Nothing else is
 * kept: no token (the key lives in storage.ts and goes with the session), no history, no security data.
 */
const KEPT: readonly { key: readonly unknown[]; data: z.ZodType }[] = [
  { key: keyOf(user.info), data: user.info.data },
  { key: keyOf(user.wallet), data: user.wallet.data },
];
/** Older than this, a saved answer is not shown at all. */
const MAX_AGE_MS = 7 * 86_400_000;
/** Saves are grouped: one write per second at most. */
const SAVE_EVERY_MS = 1_000;

const kept = (queryKey: readonly unknown[]) => KEPT.find((k) => JSON.stringify(k.key) === JSON.stringify(queryKey));

/**
 * Keeps the kept reads on this device as they change, and brings the saved copy back when the
 * network cannot answer: at once when the app starts offline (the installed app opened on a
 * train), or for one read that failed to reach the server. Never otherwise: online, a screen
 * always works from a fresh answer (the withdrawal page decides on the balance it reads).
 */
export function persistQueries(client: QueryClient): void {
  // Not while the build pre-renders pages (no browser, no device to keep anything on).
  if (typeof window === 'undefined') return;
  const saved = readSaved();
  if (!navigator.onLine) restoreAll(client, saved);
  let timer: ReturnType<typeof setTimeout> | undefined;
  client.getQueryCache().subscribe((event) => {
    if (!kept(event.query.queryKey)) return;
    if (event.type === 'updated' && event.action.type === 'error') fallBack(event.query, event.action.error, saved);
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      save(client);
    }, SAVE_EVERY_MS);
  });
  // A save still waiting when the page goes away (a reload, the app closed or sent to the
  // background) is written now: the last balance read in the second before going offline was lost.
  const flush = () => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    save(client);
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
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

type SavedQuery = ReturnType<typeof dehydrate>['queries'][number];

/** The saved reads that are still usable: this session's, recent, and matching their contract. */
function readSaved(): SavedQuery[] {
  if (!storage.getToken()) return [];
  let saved: { savedAt?: number; state?: ReturnType<typeof dehydrate> } | null;
  try {
    saved = JSON.parse(storage.getQueryCache() ?? 'null') as typeof saved;
  } catch {
    return [];
  }
  if (!saved?.state || typeof saved.savedAt !== 'number' || Date.now() - saved.savedAt > MAX_AGE_MS) return [];
  return saved.state.queries.filter((q) => kept(q.queryKey)?.data.safeParse(q.state.data).success === true);
}

function restoreAll(client: QueryClient, saved: SavedQuery[]): void {
  hydrate(client, { mutations: [], queries: saved });
  // Shown while the screen asks again, never taken as fresh: the first screen to read one refreshes it.
  for (const q of saved) client.getQueryCache().find({ queryKey: q.queryKey, exact: true })?.invalidate();
}

/** A read with nothing to show that could not reach the server: the saved copy, with its own time, beside the error and Retry. */
function fallBack(query: Query, error: unknown, saved: SavedQuery[]): void {
  if (query.state.data !== undefined || !(error instanceof ApiError) || error.status !== 0) return;
  const copy = saved.find((q) => q.queryHash === query.queryHash);
  if (copy) query.setState({ data: copy.state.data, dataUpdatedAt: copy.state.dataUpdatedAt });
}
