import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { storage } from './lib/storage';
import './index.css';

// zod 4 probes `new Function` to compile fast parsers, which the CSP (script-src 'self') reports as
// an eval violation on every form page. Its documented global config turns the probe off; it must be
// set before the first schema is built, and every schema lives in a lazily loaded page chunk.
const zodConfig = ((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {});
zodConfig.jitless = true;

const app = (
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>
);
const root = document.getElementById('root')!;
// index.html carries the landing page and login.html the login form, pre-rendered at build time for
// a guest (served for exactly '/' and '/login'; every other path gets app.html, whose root holds a
// splash until React paints): hydrate them rather than paint them again. In a transition, so React
// hydrates in slices that yield to the browser instead of one long task (the page is already painted
// and readable meanwhile). A signed-in user on /login is not the guest the build rendered for: a
// fresh render redirects them as it always did.
const prerendered =
  (location.pathname === '/' && root.querySelector('[data-testid="navbar"]') !== null) ||
  (location.pathname === '/login' && root.querySelector('form') !== null && storage.getToken() === null);
if (prerendered) startTransition(() => void hydrateRoot(root, app));
else {
  root.replaceChildren();
  createRoot(root).render(app);
}
