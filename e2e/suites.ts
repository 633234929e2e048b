import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestProvider } from '../apps/server/src/test/social-provider';
import { deposit, signUp, type ApiUser } from './api-helpers';
import { freePort, launchBrowser, startServer, type E2EServer } from './harness';

// The vitest fixtures live apart from harness.ts so that a program run outside vitest (the
// Lighthouse benchmark) can start a server without importing vitest, which throws there.

let workerChromium: Promise<Browser> | undefined;
/**
 * One Chromium per test worker, shared by the suites it runs one after the other (the workers run
 * file after file, `isolate: false` in vitest.config.ts): a launch and close cost about 1.5 CPU-s,
 * some 22 times a run. Tests work in contexts of their own, so suites share nothing through it; a
 * browser that went away is launched again. It ends with the worker (Playwright drives it over a
 * pipe, which closes when the worker exits).
 */
async function workerBrowser(): Promise<Browser> {
  const running = await workerChromium?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerChromium = launchBrowser();
  return workerChromium;
}

/** Ends a suite's use of the shared browser: the contexts a failed test left open close with it. */
async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  for (const context of browser?.contexts() ?? []) await context.close().catch(() => undefined);
}

/**
 * The fixture every browser spec shares: one server for the describe block, started before its
 * tests and stopped after, and the worker's Chromium. Read `suite.server` / `suite.browser` inside tests.
 */
export function browserSuite(env: Record<string, string> = {}): { server: E2EServer; browser: Browser } {
  const suite = {} as { server: E2EServer; browser: Browser };
  beforeAll(async () => {
    suite.server = await startServer(env);
    suite.browser = await workerBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(suite.browser);
    await suite.server?.stop();
  });
  return suite;
}

/** A user signed up and funded with `amount` once for the describe block: read `.user` inside tests. */
export function fundedUser(suite: { server: E2EServer }, name: string, amount: number): { user: ApiUser } {
  const funded = {} as { user: ApiUser };
  beforeAll(async () => {
    funded.user = await signUp(suite.server, name);
    await deposit(suite.server, funded.user, amount);
  });
  return funded;
}

/** The test OpenID provider a social suite signs in through. */
export type TestProvider = Awaited<ReturnType<typeof startTestProvider>>;

/**
 * `browserSuite` with "Continue with Google" wired to a local OpenID provider (`suite.provider`):
 * the server runs on a port chosen first, so the provider knows its callback address.
 */
export function socialSuite(): { server: E2EServer; browser: Browser; provider: TestProvider } {
  const suite = {} as { server: E2EServer; browser: Browser; provider: TestProvider };
  beforeAll(async () => {
    const port = await freePort();
    suite.provider = await startTestProvider({
      clientId: 'e2e-client',
      clientSecret: 'e2e-secret',
      redirectUris: [`http://127.0.0.1:${port}/api/auth/google/callback`],
    });
    suite.server = await startServer({
      PORT: String(port),
      GOOGLE_CLIENT_ID: 'e2e-client',
      GOOGLE_CLIENT_SECRET: 'e2e-secret',
      GOOGLE_ISSUER_URL: suite.provider.issuer,
    });
    suite.browser = await workerBrowser();
  });
  afterAll(async () => {
    await releaseBrowser(suite.browser);
    await suite.server?.stop();
    await suite.provider?.close();
  });
  return suite;
}
