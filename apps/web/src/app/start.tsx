import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { EARLY_FORM_ATTRIBUTE, handOverEarlyForm } from '../lib/early-form';
import { storage } from '../lib/storage';
import { AppRoutes, preloadRoute } from './router';

/** The app itself, loaded by the entry (main.tsx) once it has started the screen's first API read. */

const app = (
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>
);
const root = document.getElementById('root')!;
// login.html and signup.html carry their form, pre-rendered at build time for a guest (each
// signed-in page gets its own HTML with the signed-in shell, every other path app.html, whose root
// holds a splash until React paints; '/' runs no React, main.tsx): hydrate it rather than paint it
// again. In a transition, so React hydrates in slices that yield to the browser instead of one long
// task (the page is already painted and readable meanwhile). A signed-in user on /login is not the
// guest the build rendered for: a fresh render redirects them as it always did.
const prerendered = root.querySelector(`form[${EARLY_FORM_ATTRIBUTE}]`) !== null && storage.getToken() === null;
// The route's code first (the page preloads it beside the entry): the first commit is then the page
// itself and not the Suspense spinner. The HTML's own paint (a signed-in page's shell, a splash)
// stays on screen until that commit replaces it.
// Not a top-level await: the chunks it loads import this one, which must have finished evaluating.
void preloadRoute(location.pathname)
  .catch(() => undefined)
  .then(() => {
    // In a transition either way: React renders in slices that yield to the browser (the page's
    // own HTML, the login form or a signed-in shell, stays on screen meanwhile), not one long task.
    // The page's early script kept the form working until now (early-form.ts): it hands the form
    // back as the build rendered it, with what was typed, before React hydrates it.
    if (prerendered) handOverEarlyForm();
    if (prerendered) startTransition(() => void hydrateRoot(root, app));
    else startTransition(() => createRoot(root).render(app));
  });
