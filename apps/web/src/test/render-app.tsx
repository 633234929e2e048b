import type { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen, type RenderResult } from '@testing-library/react';
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { BrowserRouter } from 'react-router';
import { toast } from 'sonner';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { catchAll, defaultHandlers, resetRecords, takeDrifts, takeUnhandled } from './handlers';

/*
 * The app's real routes (app/router.tsx, with its guards, layouts, lazy pages, providers and toast
 * region) rendered in happy-dom at one route, against a fake server of contract-checked handlers
 * (handlers.ts). Each render gets the app's modules afresh (vi.resetModules), so its QueryClient,
 * its API client's session state and its toast gate are new: nothing one test read is seen by the next.
 */

// A route test waits for lazy chunks, a retried read (half a second) or a countdown: on a loaded
// machine (the whole suite on two cores) the default 5 s is too tight for the longer journeys.
vi.setConfig({ testTimeout: 20_000 });

/** The fake API of this test file: handlers given to renderApp come first, then the defaults, then the catch-all. */
export const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());
beforeEach(() => resetRecords());
afterEach(async () => {
  // The test's last reads and calls end against its own handlers, not against the next test's.
  await settled(current);
  cleanup();
  vi.restoreAllMocks();
  // sonner keeps its toasts in its module and replays the active ones to a new toast region.
  toast.dismiss();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  assertFakesHeld();
});

/**
 * Fails the test when a fake's answer drifted from its contract or a request found no fake (run
 * after each test; empties both records).
 */
export function assertFakesHeld(): void {
  const drifts = takeDrifts();
  const unhandled = takeUnhandled();
  if (drifts.length > 0) throw new Error(drifts.join('\n'));
  if (unhandled.length > 0) throw new Error(`requests no test handler answered: ${unhandled.join(', ')}`);
}

export interface TestUser {
  token?: string;
  admin?: boolean;
}
export const SIGNED_IN: TestUser = { token: 'test-token' };

export interface RenderAppOptions {
  /** signed in as this user (its token in storage as the app keeps it); signed out when absent */
  user?: TestUser;
  /** handlers before the defaults (handlers.ts: answer, fail, unreachable) */
  server?: HttpHandler[];
  /** more of localStorage as an earlier visit left it (e.g. `session_worked`) */
  storage?: Record<string, string>;
}

export interface RenderedApp extends RenderResult {
  /** the app's QueryClient of this render */
  queryClient: QueryClient;
  /** the current path (the app runs in a BrowserRouter on happy-dom's history) */
  path: () => string;
}

/** Renders the app at `route`, signed in as `user` or signed out, against the handlers given and the defaults. */
export async function renderApp(route: string, { user, server: handlers = [], storage = {} }: RenderAppOptions = {}): Promise<RenderedApp> {
  // A second render in one test (a reload, another page) waits for the first one's calls to end:
  // an answer landing later would run the old app's handling (a 401 clears the session) under the new one.
  await settled(current);
  cleanup();
  vi.resetModules();
  toast.dismiss();
  watchToasts();
  localStorage.clear();
  sessionStorage.clear();
  if (user) {
    localStorage.setItem('auth_token', user.token ?? SIGNED_IN.token!);
    localStorage.setItem('is_admin', String(user.admin ?? false));
  }
  for (const [key, value] of Object.entries(storage)) localStorage.setItem(key, value);
  window.history.replaceState(null, '', route);
  server.resetHandlers(...handlers, ...defaultHandlers(), catchAll);
  const { AppRoutes, preloadRoute } = await import('../app/router');
  const { queryClient } = await import('../lib/query-client');
  // The route's code first, as start.tsx does: the first commit is the page, not the spinner.
  await preloadRoute(new URL(route, window.location.origin).pathname).catch(() => undefined);
  const result = render(
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>,
  );
  current = queryClient;
  return { ...result, queryClient, path: () => window.location.pathname };
}

/** The QueryClient of the app rendered last. */
let current: QueryClient | null = null;
beforeEach(() => {
  current = null;
});

/** Waits (up to 5 s) until `client` has no read or call under way. */
async function settled(client: QueryClient | null): Promise<void> {
  for (const until = Date.now() + 5000; client && Date.now() < until;) {
    if (client.isFetching() === 0 && client.isMutating() === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const raised: { kind: string; message: string }[] = [];
/** Records every toast the app raises (sonner's toast.success/error/info/…), each call once. */
function watchToasts(): void {
  raised.length = 0;
  for (const kind of ['success', 'error', 'info', 'warning', 'message'] as const) {
    const own = toast[kind];
    if (vi.isMockFunction(own)) continue;
    vi.spyOn(toast, kind).mockImplementation((message, data) => {
      raised.push({ kind, message: String(message) });
      return own(message, data);
    });
  }
}
/** The messages of the toasts raised since the last renderApp, in order (a toast raised twice counts twice). */
export const toastsRaised = (kind?: string): string[] => raised.filter((t) => kind === undefined || t.kind === kind).map((t) => t.message);

/** The texts of the toasts on screen now (sonner's list items). */
export const toastTexts = (): string[] => Array.from(document.querySelectorAll('[data-sonner-toast]')).map((t) => t.textContent ?? '');

export { screen };
