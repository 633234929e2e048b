import { auth } from '@app/core/contracts/auth';
import { contractPath } from '@app/core/contracts/define';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoutes } from './app/router';
import { earlyLogin, type EarlyLoginConfig } from './features/auth/early-login';
import { EARLY_SIGNUP_HOLD_MS, earlySignup, type EarlySignupConfig } from './features/auth/early-signup';
import { FORM_ALERT_CLASS } from './components/ui/form-field';
import { EARLY_FORM_ATTRIBUTE } from './lib/early-form';
import { STORAGE_KEYS } from './lib/storage';
import { AUTH_TEXTS } from './features/auth/auth-texts';

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

/** A function's source as an inline script called with `config`: comments and indentation dropped (every byte shares the slow link). */
function inlineCall(fn: (config: never) => void, config: object): string {
  const source = fn
    .toString()
    .replace(/^\s*\/\/.*\n/gm, '')
    .replace(/^\s+/gm, '');
  // JSON in a script: '<' escaped so no value can close the element.
  return `(${source})(${JSON.stringify(config).replace(/</g, '\\u003c')})`;
}

/**
 * The scripts login.html and signup.html carry inline (features/auth/early-login.ts,
 * early-signup.ts): each form works before the app's code arrives. Inline, not a file: on a slow
 * network a file is one more round trip (2 s) before the form works; the server allows them by
 * their hashes (apps/server/src/plugins/web.ts).
 */
export function earlyFormScripts(): { login: string; signup: string } {
  const login: EarlyLoginConfig = {
    form: `form[${EARLY_FORM_ATTRIBUTE}="login"]`,
    forgot: '/forgot-password',
    api: contractPath(auth.login),
    keys: { authToken: STORAGE_KEYS.authToken, isAdmin: STORAGE_KEYS.isAdmin, queryCache: STORAGE_KEYS.queryCache, sessionWorked: STORAGE_KEYS.sessionWorked },
    sending: AUTH_TEXTS.loggingIn,
    success: AUTH_TEXTS.loginSuccess,
    refused: AUTH_TEXTS.loginRefused,
    failed: AUTH_TEXTS.loginFailed,
    noteClass: FORM_ALERT_CLASS,
  };
  const signup: EarlySignupConfig = {
    form: `form[${EARLY_FORM_ATTRIBUTE}="signup"]`,
    authTokenKey: STORAGE_KEYS.authToken,
    pending: AUTH_TEXTS.creatingAccount,
    stillLoading: AUTH_TEXTS.stillLoading,
    giveBackAfterMs: EARLY_SIGNUP_HOLD_MS,
    noteClass: FORM_ALERT_CLASS,
  };
  return { login: inlineCall(earlyLogin, login), signup: inlineCall(earlySignup, signup) };
}
