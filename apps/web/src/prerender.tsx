import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';

/** A guest's empty browser storage: the guards and pages read it while the build renders /login. */
function emptyStorage(): Storage {
  return {
    length: 0,
    clear: () => undefined,
    getItem: () => null,
    key: () => null,
    removeItem: () => undefined,
    setItem: () => undefined,
  };
}

/**
 * A page's HTML at build time (vite.config.ts, `prerenderPages`): the same tree main.tsx hydrates,
 * rendered for `location` as a guest once every lazy chunk has loaded, so the first paint of / and
 * /login needs no JavaScript. Values only the browser knows go through useClientValue.
 */
export async function renderPage(location: string): Promise<string> {
  const g = globalThis as { localStorage?: Storage; sessionStorage?: Storage };
  const had = { localStorage: g.localStorage, sessionStorage: g.sessionStorage };
  g.localStorage ??= emptyStorage();
  g.sessionStorage ??= emptyStorage();
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
