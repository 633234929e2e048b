import { user, ZSettings } from '@app/core/contracts/user';
import { hashKey, onlineManager, type Query, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError } from './api-client';
import { keyOf } from './query-keys';
import { storage } from './storage';

/**
 * The reads kept on this device, so the signed-in app offline shows each screen's last figures
 * (issues 32 and 47), each query on its own: a page read later never drops another page's copy.
 *
 * Kept: the dashboard (`get-info`: name, username, status, balances, recent activity), the wallet
 * (balances, totals, team counts) and the rates (`/user/settings`: ROI, cap, referral %, withdrawal
 * fee; the same for every user). Together they give the dashboard, /wallet, /withdrawal, /transfer,
 * /staking and the income page's rates. Not kept, on purpose: histories and lists (transactions,
 * income, stakes, transfers, team: other people's names, and long), the profile (e-mail), the
 * security page (2FA, sessions), payments and addresses. No token: the copy belongs to the session
 * in `auth_token` (storage.ts removes it with the session).
 *
 * Each copy comes back only if it still matches its contract (an answer saved by an older build is
 * dropped instead of breaking the screen) and was read less than 7 days ago.
 */
const KEPT: readonly { key: readonly unknown[]; data: z.ZodType }[] = [
  { key: keyOf(user.info), data: user.info.data },
  { key: keyOf(user.wallet), data: user.wallet.data },
  // settingsQueryOptions keeps `data.settings`, not the whole answer.
  { key: keyOf(user.settings), data: ZSettings },
];
/** Older than this, a saved answer is not shown at all. */
export const MAX_AGE_MS = 7 * 86_400_000;
/** Saves are grouped: one write per second at most. */
const SAVE_EVERY_MS = 1_000;

const keptHashes = new Map(KEPT.map((k) => [hashKey(k.key), k.data]));
/** The contract of a kept query, or undefined for a query that is never kept. */
export const keptSchema = (queryKey: readonly unknown[]): z.ZodType | undefined => keptHashes.get(hashKey(queryKey));

/** One saved answer: its query, its data and when it was read. */
export interface SavedAnswer {
  key: readonly unknown[];
  data: unknown;
  at: number;
}
/** The saved answers by query hash. */
export type DeviceCopy = Map<string, SavedAnswer>;

/** Whether a saved answer may be shown: a kept query, recent, still matching its contract. */
function usable(a: Partial<SavedAnswer> | null | undefined, now: number): a is SavedAnswer {
  if (!a || !Array.isArray(a.key) || typeof a.at !== 'number' || now - a.at > MAX_AGE_MS || a.at > now + 60_000) return false;
  return keptSchema(a.key)?.safeParse(a.data).success === true;
}

/** The usable answers of what `query_cache` holds (anything else, an older format included, is dropped). */
export function readCopy(raw: string | null, now: number): DeviceCopy {
  const copy: DeviceCopy = new Map();
  let saved: { v?: number; queries?: Partial<SavedAnswer>[] } | null;
  try {
    saved = JSON.parse(raw ?? 'null') as typeof saved;
  } catch {
    return copy;
  }
  if (saved?.v !== 2 || !Array.isArray(saved.queries)) return copy;
  for (const a of saved.queries) if (usable(a, now)) copy.set(hashKey(a.key), { key: a.key, data: a.data, at: a.at });
  return copy;
}

/** What `query_cache` is written as: every usable answer. */
export function writeCopy(copy: DeviceCopy, now: number): string {
  return JSON.stringify({ v: 2, queries: [...copy.values()].filter((a) => usable(a, now)) });
}

/** Where the copy lives (storage.ts in the app). */
export interface CopyStore {
  getToken: () => string | null;
  getQueryCache: () => string | null;
  setQueryCache: (json: string) => void;
}

/**
 * Keeps each kept read's last answer as it comes, and brings the copies back when the network
 * cannot answer:
 * - offline (at start, or on going offline): into every kept query that has no data, and into each
 *   one a screen opens while offline. Shown as a success that was never fetched in this run
 *   (`isFetched` false), so money forms stay shut (lib/figure-state.ts); the paused read runs when
 *   the network comes back (refetchOnReconnect) and replaces it.
 * - online, for a read that could not reach the server (status 0) with nothing to show: beside the
 *   error and Retry.
 * Never otherwise: online, a screen always works from a fresh answer.
 */
export function attachCopy(client: QueryClient, store: CopyStore, now: () => number = Date.now) {
  let owner = store.getToken();
  let copy = owner ? readCopy(store.getQueryCache(), now()) : new Map<string, SavedAnswer>();
  /** Whether the copy is this session's; a new (or no) session starts from an empty one. */
  const mine = () => {
    const token = store.getToken();
    if (token !== owner) {
      owner = token;
      copy = new Map();
    }
    return token !== null;
  };

  const restore = (query: Query) => {
    if (query.state.data !== undefined || !mine()) return;
    const a = copy.get(query.queryHash);
    if (!usable(a, now())) return;
    query.setState({ data: a.data, dataUpdatedAt: a.at, status: 'success', error: null, isInvalidated: true });
  };
  const restoreAll = () => {
    if (!mine()) return;
    for (const a of copy.values()) restore(client.getQueryCache().build(client, { queryKey: a.key }));
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    try {
      // Signed out meanwhile: the session's copy was removed with it and must not come back.
      if (!mine()) return;
      store.setQueryCache(writeCopy(copy, now()));
    } catch {
      // Storage full, refused (private mode) or gone (the page is being torn down): the app works
      // as before, without the offline copy.
    }
  };

  if (!onlineManager.isOnline()) restoreAll();
  const offOnline = onlineManager.subscribe((online) => {
    if (!online) restoreAll();
  });
  const offCache = client.getQueryCache().subscribe((event) => {
    if (!keptSchema(event.query.queryKey)) return;
    if (event.type === 'added' && !onlineManager.isOnline()) restore(event.query);
    if (event.type !== 'updated') return;
    const { action } = event;
    if (action.type === 'error') {
      const q = event.query;
      if (q.state.data === undefined && action.error instanceof ApiError && action.error.status === 0 && mine()) {
        const a = copy.get(q.queryHash);
        if (usable(a, now())) q.setState({ data: a.data, dataUpdatedAt: a.at });
      }
      return;
    }
    if (action.type !== 'success' || !mine()) return;
    copy.set(event.query.queryHash, { key: event.query.queryKey, data: event.query.state.data, at: event.query.state.dataUpdatedAt });
    timer ??= setTimeout(save, SAVE_EVERY_MS);
  });

  return {
    /** Writes a save still waiting (the page is going away). */
    flush: () => {
      if (timer !== undefined) save();
    },
    detach: () => {
      offOnline();
      offCache();
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/** The app's copy on this device (query-client.ts), written at once when the page goes away. */
export function persistQueries(client: QueryClient): void {
  // Not while the build pre-renders pages (no browser, no device to keep anything on).
  if (typeof window === 'undefined') return;
  const { flush } = attachCopy(client, storage);
  // A save still waiting when the page goes away (a reload, the app closed or sent to the
  // background) is written now: the last balance read in the second before going offline was lost.
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}
