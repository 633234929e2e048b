import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, newPage, otpFrom, PHONE, screenshot } from './harness';
import { closeWithoutErrors } from './pages';
import { browserSuite } from './suites';

const ANCHORS = ['Home', 'HowStart', 'chains', 'wallet', 'About', 'defi', 'Roadmap', 'FAQ'];

async function openLanding(page: Page) {
  await page.goto('/');
  await page.locator('#FAQ').waitFor({ state: 'attached' });
}

/** Nothing may push the page sideways on a phone (decorative glows are clipped, the marquee is masked). */
async function pageScrollWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

describe('landing, legal and maintenance pages (browser)', () => {
  const suite = browserSuite();

  it('has the eight section anchors, linked from the navbar, and no sideways scroll on a phone', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await openLanding(page);
    for (const id of ANCHORS) expect(await page.locator(`[id="${id}"]`).count(), id).toBe(1);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menuLinks = await page.locator('#landing-menu a[href^="#"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(menuLinks).toEqual(ANCHORS.map((id) => `#${id}`));
    await page.locator('#landing-menu').getByRole('link', { name: 'FAQ' }).click();
    await expect.poll(() => page.evaluate(() => document.getElementById('FAQ')!.getBoundingClientRect().top), { timeout: 10_000 }).toBeLessThan(200);
    expect(await pageScrollWidth(page)).toBe(PHONE.width);
    await screenshot(page, 'landing-phone');
    await closeWithoutErrors({ errors, context });
  });

  it('turns the navbar solid after scrolling past 20 px and transparent again at the top', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, DESKTOP);
    await openLanding(page);
    const navbar = page.getByTestId('navbar');
    const background = () => navbar.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await navbar.getAttribute('data-scrolled')).toBe('false');
    const top = await background();
    await page.evaluate(() => window.scrollTo({ top: 10, behavior: 'instant' }));
    await page.waitForTimeout(100);
    expect(await navbar.getAttribute('data-scrolled')).toBe('false');
    await page.evaluate(() => window.scrollTo({ top: 400, behavior: 'instant' }));
    await expect.poll(() => navbar.getAttribute('data-scrolled')).toBe('true');
    await expect.poll(background).not.toBe(top);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expect.poll(() => navbar.getAttribute('data-scrolled')).toBe('false');
    await screenshot(page, 'landing-desktop');
    await closeWithoutErrors({ errors, context });
  });

  it('types and deletes the headline words in turn, and swaps whole words under reduced motion', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    // Record every text the headline shows from the first byte of the page, then read the sequence
    // back once the second word is typed. (Recording that began after the page loaded missed the
    // whole first word once on a saturated machine: it had been typed before the observer ran.)
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      const record = () => {
        const el = document.querySelector('[data-testid="typed-word"]');
        if (el && (seen.length === 0 || el.textContent !== seen.at(-1))) seen.push(el.textContent ?? '');
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await openLanding(page);
    await expect.poll(() => page.getByTestId('typed-word').textContent(), { timeout: 10_000 }).toBe('Secure Returns');
    const recorded = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const seen = recorded.filter((t, i) => i === 0 || t !== recorded[i - 1]);
    const [first, second] = ['Passive Income', 'Secure Returns'];
    const full = seen.indexOf(first);
    expect(full).toBeGreaterThanOrEqual(0);
    expect(seen.slice(0, full).every((t) => first.startsWith(t))).toBe(true);
    const empty = seen.indexOf('', full);
    expect(seen.slice(full, empty + 1)).toEqual(Array.from({ length: first.length + 1 }, (_, i) => first.slice(0, first.length - i)));
    expect(seen.slice(empty)).toEqual(Array.from({ length: second.length + 1 }, (_, i) => second.slice(0, i)));
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    expect(await page.getByTestId('typed-word').textContent()).toBe('Passive Income');
    await expect.poll(() => page.getByTestId('typed-word').textContent(), { timeout: 6_000 }).toBe('Secure Returns');
    await closeWithoutErrors({ errors, context });
  });

  it('has a FAQ of six questions that open one at a time', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await openLanding(page);
    const items = page.getByTestId('faq-item');
    expect(await items.count()).toBe(6);
    expect(await items.evaluateAll((els) => els.filter((e) => (e as HTMLDetailsElement).open).length)).toBe(0);
    await items.nth(1).locator('summary').click();
    await page.getByText('is not returned separately', { exact: false }).last().waitFor();
    expect(await items.nth(1).evaluate((e) => (e as HTMLDetailsElement).open)).toBe(true);
    await items.nth(4).locator('summary').click();
    expect(await items.nth(4).evaluate((e) => (e as HTMLDetailsElement).open)).toBe(true);
    expect(await items.nth(1).evaluate((e) => (e as HTMLDetailsElement).open)).toBe(false);
    await closeWithoutErrors({ errors, context });
  });

  it('sends a guest from Start Farming and GET STARTED to /dashboard, whose guard shows /login', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    for (const name of ['Start Farming', 'GET STARTED']) {
      await openLanding(page);
      expect(await page.getByRole('link', { name, exact: true }).getAttribute('href')).toBe('/dashboard');
      await page.getByRole('link', { name, exact: true }).click();
      await page.waitForURL('**/login');
    }
    await closeWithoutErrors({ errors, context });
  });

  it('links the footer to the legal pages, login, signup and three social accounts', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, DESKTOP);
    await openLanding(page);
    const footer = page.locator('footer');
    const hrefs = await footer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of ['/privacy-policy', '/terms-conditions', '/login', '/signup']) expect(hrefs).toContain(href);
    expect(await footer.getByRole('list', { name: 'Social media' }).getByRole('link').count()).toBe(3);
    await footer.getByRole('link', { name: 'Terms & Conditions' }).click();
    await page.waitForURL('**/terms-conditions');
    await closeWithoutErrors({ errors, context });
  });

  it('shows the privacy policy and the terms, last updated April 17, 2025, with the support e-mail and a way home', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      for (const [path, title, shot] of [
        ['/privacy-policy', 'Privacy Policy', 'privacy'],
        ['/terms-conditions', 'Terms and Conditions', 'terms'],
      ] as const) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.getByText('Last updated: April 17, 2025').waitFor();
        expect(await page.getByRole('link', { name: 'support@usdtstake.app' }).getAttribute('href')).toBe('mailto:support@usdtstake.app');
        expect(await pageScrollWidth(page)).toBe(viewport.width);
        await screenshot(page, `${shot}-${viewport === PHONE ? 'phone' : 'desktop'}`);
      }
      await page.getByRole('link', { name: 'Back to home' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await closeWithoutErrors({ errors, context });
    }
  });

  it('shows the maintenance page, whose Try again reloads the app on /dashboard', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/maintenance');
    await page.getByRole('heading', { name: 'Server is under maintenance' }).waitFor();
    await screenshot(page, 'maintenance-phone');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL('**/login');
    await closeWithoutErrors({ errors, context });
  });

  it('shows the disclaimer inside the signed-in layout with a warning and an ok button', async () => {
    const email = `disclaimer${Date.now()}@example.test`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${suite.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return (await res.json()) as { data: { access_id?: string; token?: string } };
    };
    const registered = await post('/api/auth/register', { name: 'Dee Claimer', email, password: 'Secret123!' });
    const mail = await suite.server.mailbox.waitFor(email);
    const verified = await post('/api/auth/verify-otp', { access_id: registered.data.access_id, otp: otpFrom(mail.text) });
    expect(verified.data.token).toBeTruthy();

    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/maintenance');
    await page.evaluate((token) => localStorage.setItem('auth_token', token), verified.data.token!);
    await page.goto('/disclaimer');
    await page.getByText('You use this platform at your own risk', { exact: false }).waitFor();
    await page.getByText('no guarantee that it will be error-free or uninterrupted', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'ok', exact: true }).click();
    expect(new URL(page.url()).pathname).toBe('/disclaimer');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Income' }).count()).toBe(1);
    await screenshot(page, 'disclaimer-phone');
    await closeWithoutErrors({ errors, context });
  });
});
