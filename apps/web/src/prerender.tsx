import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { STORAGE_KEYS } from './lib/storage';

export { SIGNED_IN_PAGE_MODULES } from './app/router';
export { titleFor } from './app/root-route';

/**
 * The browser storage the guards and pages read while the build renders a page: a guest's (empty),
 * or a signed-in user's, whose token only gets the signed-in layout past the guard (no data is
 * fetched at build time: each page renders its loading state, the shell).
 */
function buildStorage(signedIn: boolean): Storage {
  return {
    length: 0,
    clear: () => undefined,
    getItem: (key) => (signedIn && key === STORAGE_KEYS.authToken ? 'prerender' : null),
    key: () => null,
    removeItem: () => undefined,
    setItem: () => undefined,
  };
}

/**
 * A page's HTML at build time (build/prerender-pages.ts): the same tree the app renders, for
 * `location` as a guest (or, for a signed-in page, as a user whose data has not arrived) once every
 * lazy chunk has loaded, so the first paint needs no JavaScript. Values only the browser knows go
 * through useClientValue.
 */
export async function renderPage(location: string, signedIn = false): Promise<string> {
  const g = globalThis as { localStorage?: Storage; sessionStorage?: Storage };
  const had = { localStorage: g.localStorage, sessionStorage: g.sessionStorage };
  g.localStorage = buildStorage(signedIn);
  g.sessionStorage = buildStorage(false);
  try {
    const { prelude } = await prerender(
      <StrictMode>
        <StaticRouter location={location}>
          <AppRoutes />
        </StaticRouter>
      </StrictMode>,
      // One document, every boundary inline: no boundary is outlined for streaming, so the HTML needs
      // none of React's inline completion scripts, which the CSP (script-src 'self') would block.
      { progressiveChunkSize: Number.POSITIVE_INFINITY },
    );
    return await new Response(prelude).text();
  } finally {
    g.localStorage = had.localStorage;
    g.sessionStorage = had.sessionStorage;
  }
}
