import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProvider } from '../apps/server/src/test/social-provider';
import { freePort, launchBrowser, newPage, PHONE, screenshot, startServer, type E2EServer } from './harness';

describe('Continue with Google through a local OpenID provider (browser)', () => {
  let server: E2EServer;
  let browser: Browser;
  let provider: Awaited<ReturnType<typeof startTestProvider>>;
  beforeAll(async () => {
    const port = await freePort();
    provider = await startTestProvider({
      clientId: 'e2e-client',
      clientSecret: 'e2e-secret',
      redirectUris: [`http://127.0.0.1:${port}/api/auth/google/callback`],
    });
    server = await startServer({ PORT: String(port), GOOGLE_CLIENT_ID: 'e2e-client', GOOGLE_CLIENT_SECRET: 'e2e-secret', GOOGLE_ISSUER_URL: provider.issuer });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
  });

  it('a new user without a referral goes to the provider, comes back to /referral, registers, and lands on /dashboard', async () => {
    provider.signInAs({ sub: 'google-e2e-1', email: `social${Date.now()}@example.test`, email_verified: true, name: 'Sofia Social' });
    const { page, errors, context } = await newPage(browser, server.url, PHONE);
    await page.goto('/signup');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.waitForURL('**/referral');
    await page.getByRole('heading', { name: 'One Last Step' }).waitFor();
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('socialUser') ?? '{}').name)).toBe('Sofia Social');
    await screenshot(page, 'referral-phone');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Referral updated successfully!').waitFor();
    await page.waitForURL('**/dashboard');
    await page.getByText('Sofia Social').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('socialUser'))).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a refused sign-in ends on /login with the failure toast', async () => {
    provider.denyNext();
    const { page, context } = await newPage(browser, server.url, PHONE);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByText('Google authentication failed').waitFor();
    await page.waitForURL('**/login');
    await context.close();
  });
});
