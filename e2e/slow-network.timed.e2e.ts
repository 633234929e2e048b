import { describe, expect, it } from 'vitest';
import { loginHydrated, newTestContext, PHONE, recordErrors, screenshot } from './harness';
import { navLink, signedInPage } from './pages';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, fundedUser } from './suites';

/*
 * Issue 32's time limits on a slow network. A file of its own because it measures time: `npm test`
 * runs the *.timed.e2e.ts files after every other browser test, one at a time, so what it measures
 * is the app and the emulated network, not other tests' browsers taking the two cores (beside them
 * it read 3.1 s and 11.2 s on a saturated machine).
 */
/** The slow phone network: 2,000 ms latency, 50 KiB/s each way. */
const SLOW = { offline: false, latency: 2_000, downloadThroughput: 50 * 1024, uploadThroughput: 50 * 1024 };

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW);
}

/** A guest's cold page on the slow network, its console errors (a CSP refusal among them) recorded. */
async function slowGuestPage(suite: ReturnType<typeof browserSuite>) {
  const context = await newTestContext(suite.browser, suite.server.url, PHONE);
  const page = await context.newPage();
  const errors = recordErrors(page);
  await throttle(context, page);
  return { context, page, errors };
}

describe('issue 32: a weak network, timed', () => {
  const suite = browserSuite();
  const funded = fundedUser(suite, 'Slow Network', 120);

  it('a cold signed-in load on a slow network (2,000 ms latency, 50 KiB/s) shows the shell within 3 s and the balance within 10 s', async () => {
    // With the service worker, as a person's first visit has it: its precache shares the slow link.
    const { context, page } = await signedInPage(suite.browser, suite.server, funded.user.token, PHONE, 'allow');
    await throttle(context, page);
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await navLink(page, 'Home').waitFor({ timeout: 10_000 });
    const shellAt = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? performance.now());
    await page.getByTestId('deposit-balance').getByText('$120.00').waitFor({ timeout: 30_000 });
    const balanceAt = await page.evaluate(() => performance.now());
    console.log(`slow network: shell painted at ${Math.round(shellAt)} ms, balance shown by ${Math.round(balanceAt)} ms`);
    await screenshot(page, 'weak-12-slow-network-phone');
    expect(shellAt).toBeLessThanOrEqual(3_000);
    expect(balanceAt).toBeLessThanOrEqual(10_000);
    await context.close();
  });
});

describe('issue 51: the login form on a slow network, before the app has loaded', () => {
  const suite = browserSuite();
  const funded = fundedUser(suite, 'Slow Login', 50);
  it('signs in from a cold load within 5 s of the first byte (2,000 ms latency, 50 KiB/s), before the app has loaded', async () => {
    const { context, page, errors } = await slowGuestPage(suite);
    let firstByteAt = 0;
    let answeredAt = 0;
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && new URL(response.url()).pathname === '/login') firstByteAt ||= Date.now();
      if (new URL(response.url()).pathname === '/api/auth/login') answeredAt ||= Date.now();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const login = page.getByRole('button', { name: 'Login', exact: true });
    await page.getByLabel('Email').fill(funded.user.email);
    await page.getByLabel('Password', { exact: true }).fill(funded.user.password);
    // Login works as soon as the form is painted: the page's own script, not the app, sends it.
    await expect.poll(() => login.isEnabled(), { timeout: 10_000 }).toBe(true);
    const pressedAt = Date.now();
    const appReadyAtPress = await loginHydrated(page);
    await login.click();
    await page.waitForURL('**/dashboard', { waitUntil: 'commit', timeout: 15_000 });
    const signedInAt = Date.now();
    await navLink(page, 'Home').waitFor({ timeout: 15_000 });
    const shellAt = Date.now();
    await page.getByTestId('deposit-balance').getByText('$50.00').waitFor({ timeout: 30_000 });
    const balanceAt = Date.now();
    const after = (at: number) => `${at - firstByteAt} ms`;
    console.log(
      `slow login: first byte → Login enabled and pressed ${after(pressedAt)}, login answered ${after(answeredAt)}, signed in (on its way to /dashboard) ${after(signedInAt)}, dashboard shell ${after(shellAt)}, balance ${after(balanceAt)}`,
    );
    // The point of the test: the press was made before the app had loaded, and worked.
    expect(appReadyAtPress).toBe(false);
    expect(firstByteAt).toBeGreaterThan(0);
    expect(answeredAt - firstByteAt).toBeLessThanOrEqual(5_000);
    // The dashboard's own HTML is one more round trip (2 s) after the answer: 4.6 s measured.
    expect(shellAt - firstByteAt).toBeLessThanOrEqual(7_000);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says a refusal before the app has loaded, and keeps what was typed when it takes the form over', async () => {
    const { context, page, errors } = await slowGuestPage(suite);
    const logins: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/login') logins.push(request.postData() ?? '');
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password', { exact: true });
    await email.fill(funded.user.email);
    await password.fill('not the password');
    expect(await loginHydrated(page)).toBe(false);
    // A refusal before the app has loaded is said on the form, in the spec's words (the server's).
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /./ }).waitFor({ timeout: 10_000 });
    expect(await loginHydrated(page)).toBe(false);
    // The right password typed, not pressed: the app takes the form over with it.
    await password.fill(funded.user.password);
    await expect.poll(() => loginHydrated(page), { timeout: 30_000 }).toBe(true);
    expect(await email.inputValue()).toBe(funded.user.email);
    expect(await password.inputValue()).toBe(funded.user.password);
    // The app's own Login now, with the values typed before it loaded.
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    expect(logins.map((body) => JSON.parse(body) as { email: string; password: string })).toEqual([
      { email: funded.user.email, password: 'not the password' },
      { email: funded.user.email, password: funded.user.password },
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('issue 51: "Forgot password?" on a slow network, before the app has loaded', () => {
  const suite = browserSuite();

  it("carries the e-mail typed on /login to the reset page, as the app's link does, and not in the address", async () => {
    const { context, page, errors } = await slowGuestPage(suite);
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByLabel('Email').fill('forgetful@example.test');
    await expect.poll(() => page.getByRole('button', { name: 'Login', exact: true }).isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await loginHydrated(page)).toBe(false);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password', { waitUntil: 'commit', timeout: 15_000 });
    const email = page.getByLabel('Email');
    await expect.poll(() => email.inputValue().catch(() => ''), { timeout: 30_000 }).toBe('forgetful@example.test');
    expect(page.url()).not.toContain('forgetful');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('issue 51: the sign-up form on a slow network, before the app has loaded', () => {
  const suite = browserSuite();

  it('is filled in and pressed before the app has loaded: the press waits, says so, and the app registers with everything typed', async () => {
    const { context, page, errors } = await slowGuestPage(suite);
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/register') registrations.push(request.postData() ?? '');
    });
    let firstByteAt = 0;
    page.on('response', (response) => {
      if (response.request().isNavigationRequest() && new URL(response.url()).pathname === '/signup') firstByteAt ||= Date.now();
    });
    const email = `slow-signup-${Date.now()}@example.test`;
    await page.goto('/signup', { waitUntil: 'commit' });
    const create = page.getByRole('button', { name: 'Create Account', exact: true });
    await page.getByLabel('Full Name').fill('Slow Signup');
    const filledAt = Date.now();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Str0ngPass!');
    await page.getByLabel('Confirm Password').fill('Str0ngPass!');
    await page.getByRole('checkbox').check();
    await expect.poll(() => create.isEnabled(), { timeout: 10_000 }).toBe(true);
    const appReadyAtPress = await loginHydrated(page);
    const pressedAt = Date.now();
    await create.click();
    // Held, and said: the app carries it out once it has loaded.
    await page.getByRole('button', { name: 'Creating Account...' }).waitFor({ timeout: 2_000 });
    await screenshot(page, 'weak-13-slow-signup-held-phone');
    await page.waitForURL('**/verify-otp', { timeout: 30_000 });
    const registeredAt = Date.now();
    console.log(
      `slow sign-up: first byte → typing ${filledAt - firstByteAt} ms, Create Account pressed ${pressedAt - firstByteAt} ms, registered (on /verify-otp) ${registeredAt - firstByteAt} ms`,
    );
    expect(appReadyAtPress).toBe(false);
    expect(registrations.map((body) => JSON.parse(body) as unknown)).toEqual([{ name: 'Slow Signup', email, password: 'Str0ngPass!' }]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
