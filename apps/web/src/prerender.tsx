import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';

/**
 * The landing page's HTML at build time (vite.config.ts, `prerenderLanding`): the same tree main.tsx
 * hydrates, rendered for '/' once every lazy section has loaded, so the first paint of / needs no
 * JavaScript. Nothing here may read the browser: values only it knows go through useClientValue.
 */
export async function renderLanding(): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <StaticRouter location="/">
        <AppRoutes />
      </StaticRouter>
    </StrictMode>,
    // One document, every boundary inline: no boundary is outlined for streaming, so the HTML needs
    // none of React's inline completion scripts, which the CSP (script-src 'self') would block.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}
