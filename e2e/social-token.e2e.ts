import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUp } from './api-helpers';
import { newPage, PHONE } from './harness';
import { browserSuite } from './suites';

/** Records every toast text the page ever shows, from the first script on (a toast may live only briefly). */
async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    new MutationObserver(() => {
      document.querySelectorAll('[data-sonner-toast]').forEach((el) => {
        const text = el.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      });
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
}

describe('the social sign-in token on /signup?token=…&provider=… (browser)', () => {
  const suite = browserSuite();

  it('a bogus token never shows "Login successful!": the session is refused and the user goes to /', async () => {
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const toasts = await recordToasts(page);
    await page.goto('/signup?token=bogus&provider=google');
    await page.waitForURL((url) => url.pathname === '/');
    await page.waitForTimeout(1500);
    expect(await toasts()).not.toContain('Login successful!');
    expect(await toasts()).toContain('Invalid or expired token');
    expect(await page.getByText('Login successful!').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    await context.close();
  });

  it('a valid token shows "Login successful!" and lands on /dashboard', async () => {
    const u = await signUp(suite.server, 'Token Person');
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const toasts = await recordToasts(page);
    await page.goto(`/signup?token=${encodeURIComponent(u.token)}&provider=google`);
    await page.getByText('Login successful!').waitFor();
    await page.waitForURL('**/dashboard');
    expect((await toasts()).filter((t) => t === 'Login successful!')).toHaveLength(1);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBe(u.token);
    expect(errors).toEqual([]);
    await context.close();
  });
});
