import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestProvider } from '../apps/server/src/test/social-provider';
import { deposit, signUp, type ApiUser } from './api-helpers';
import { freePort, launchBrowser, startServer, type E2EServer } from './harness';

// The vitest fixtures live apart from harness.ts so that a program run outside vitest (the
// Lighthouse benchmark) can start a server without importing vitest, which throws there.

/**
 * The fixture every browser spec shares: one server and one Chromium for the describe block,
 * started before its tests and stopped after. Read `suite.server` / `suite.browser` inside tests.
 */
export function browserSuite(env: Record<string, string> = {}): { server: E2EServer; browser: Browser } {
  const suite = {} as { server: E2EServer; browser: Browser };
  beforeAll(async () => {
    suite.server = await startServer(env);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
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
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    await suite.provider?.close();
  });
  return suite;
}
