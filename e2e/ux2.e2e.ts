import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, type ApiUser } from './api-helpers';
import { DESKTOP, launchBrowser, newPage, PHONE, screenshot, startServer, type E2EServer } from './harness';

const SIZES = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

describe('the rest of issue 12: a light landing page and visitors sent to sign up', () => {
  let server: E2EServer;
  let browser: Browser;
  let user: ApiUser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    user = await signUp(server, 'Landing Person');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [size, viewport] of SIZES) {
    it(`paints the landing page without the data, toast or signed-in code, and loads it on the first app screen (${size})`, async () => {
      const { page, errors, context } = await newPage(browser, server.url, viewport);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('#FAQ').waitFor({ state: 'attached' });
      expect(scripts.some((s) => s.includes('landing-page'))).toBe(true);
      // TanStack Query, sonner and the API client live in the providers' chunk; the bottom bar in the layout's.
      expect(scripts.filter((s) => /app-providers|signed-in-layout|api-client|schemas|zod/.test(s))).toEqual([]);
      await screenshot(page, `ux2-landing-${size}`);
      await page.goto('/login');
      await page.getByRole('button', { name: /log ?in/i }).first().waitFor();
      expect(scripts.some((s) => s.includes('app-providers'))).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`sends a first-time visitor from Start Farming and GET STARTED to /signup (${size})`, async () => {
      const { page, errors, context } = await newPage(browser, server.url, viewport);
      for (const name of ['Start Farming', 'GET STARTED']) {
        await page.goto('/');
        const link = page.getByRole('link', { name, exact: true });
        expect(await link.getAttribute('href')).toBe('/signup');
        await link.click();
        await page.waitForURL('**/signup');
      }
      await screenshot(page, `ux2-visitor-signup-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`shows a signed-in user 'Dashboard' instead of 'Sign up', and keeps sending them to /dashboard after signing out (${size})`, async () => {
      const { page, errors, context } = await newPage(browser, server.url, viewport);
      await signIn(page, user, '/');
      const bar = page.getByTestId('navbar');
      await bar.getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
      expect(await bar.getByRole('link', { name: 'Sign up', exact: true }).count()).toBe(0);
      if (size === 'phone') {
        await page.getByRole('button', { name: 'Open menu' }).click();
        expect(await page.locator('#landing-menu').getByRole('link', { name: 'Create account' }).count()).toBe(0);
        await page.locator('#landing-menu').getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
      }
      await screenshot(page, `ux2-landing-signed-in-${size}`);
      await bar.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
      await page.waitForURL('**/dashboard');

      // Signed out (the token gone): the browser still remembers there is an account, so 'Welcome back'.
      await page.evaluate(() => localStorage.removeItem('auth_token'));
      await page.goto('/');
      await bar.getByRole('link', { name: 'Sign up', exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Start Farming', exact: true }).getAttribute('href')).toBe('/dashboard');
      await page.getByRole('link', { name: 'Start Farming', exact: true }).click();
      await page.waitForURL('**/login');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('opens /#FAQ at the FAQ although the section arrives after the hero', async () => {
    const { page, errors, context } = await newPage(browser, server.url, PHONE);
    await page.goto('/#FAQ');
    await page.locator('#FAQ').waitFor({ state: 'attached' });
    await expect.poll(() => page.evaluate(() => Math.abs(document.getElementById('FAQ')!.getBoundingClientRect().top)), { timeout: 10_000 }).toBeLessThan(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
