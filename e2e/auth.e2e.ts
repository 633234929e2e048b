import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, signUp } from './api-helpers';
import { DESKTOP, newPage, otpFrom, PHONE, screenshot } from './harness';
import { closeWithoutErrors } from './pages';
import { browserSuite } from './suites';

/**
 * Before a screenshot: let the entrance animations finish (a page caught mid fade-in looks dim) and,
 * unless the toast is the point of the picture, wait for the toasts to go so they hide nothing.
 */
async function settle(page: Page, { keepToasts = false } = {}): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity));
  if (!keepToasts) await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}

/** No element may be scrolled sideways and the page may not be wider than the phone. */
async function expectNoSidewaysShift(page: Page): Promise<void> {
  const r = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    shifted: Array.from(document.querySelectorAll('*')).filter((e) => e.scrollLeft !== 0 && !(e instanceof HTMLInputElement)).length,
  }));
  expect(r).toEqual({ width: PHONE_WIDTH, shifted: 0 });
}
const PHONE_WIDTH = PHONE.width;

describe('sign up, verify, sign in and the guards (browser)', () => {
  const suite = browserSuite();

  it('signs up on /signup, verifies the OTP from the SMTP capture, lands on /dashboard, stays signed in, logs out', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const email = `e2e${Date.now()}@example.test`;
    await page.goto('/signup');
    await settle(page);
    await screenshot(page, 'signup-phone');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText('Name is required').isVisible()).toBe(true);
    await page.getByText('Please agree to the terms and conditions').waitFor();
    await page.getByText('You must accept the terms and conditions to continue').waitFor();
    await settle(page, { keepToasts: true });
    await expectNoSidewaysShift(page);
    await screenshot(page, 'signup-errors-phone');

    await page.getByLabel('Full Name').fill('Eve Tester');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Secret123!');
    await page.getByText('Strong password').waitFor();
    await page.getByLabel('Confirm Password').fill('Secret123!');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/verify-otp');
    await page.getByRole('heading', { name: 'OTP Verification' }).waitFor();
    await page.getByText('Registration successful! Otp Verification needed.').waitFor();
    await page.getByText('Resend code in').waitFor();
    await settle(page);
    await screenshot(page, 'verify-otp-phone');

    const mail = await suite.server.mailbox.waitFor(email);
    await page.getByLabel('Verification code').fill(otpFrom(mail.text));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Eve Tester').waitFor();
    const username = (await page.getByTestId('header-username').textContent())!;
    expect(username).toMatch(/^[A-Z0-9]{9}$/);
    await page.getByText('No Rank').waitFor();
    await page.getByText('No recent activities found').waitFor();
    expect(await page.getByTestId('referral-link').textContent()).toContain(`/signup?ref=${username}`);
    await page.getByRole('button', { name: 'Copy referral link' }).click();
    await page.getByText('Referral link copied!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${suite.server.url}/signup?ref=${username}`);
    await settle(page);
    await screenshot(page, 'dashboard-phone');
    await page.setViewportSize(DESKTOP);
    await settle(page);
    await screenshot(page, 'dashboard-desktop');
    await page.setViewportSize(PHONE);

    await page.reload();
    await page.getByText('Eve Tester').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    await page.goto('/login');
    await page.waitForURL('**/dashboard');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('My Account').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Are you sure you want to logout?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).not.toBeNull();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('dialog').getByText('Confirm Logout').waitFor();
    await settle(page);
    await screenshot(page, 'logout-dialog-phone');
    await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    // The toast is shown on the landing page itself, not only while the previous screen lingers.
    await page.getByText('GET STARTED').first().waitFor();
    await page.getByText('Logged out successfully').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Secret123!');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard');
    await closeWithoutErrors({ errors, context });
  });

  it('sends a guest on /dashboard to /login, an unknown path to /, and shows the screens at both sizes', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, DESKTOP);
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await settle(page);
    await screenshot(page, 'login-desktop');
    await page.goto('/no/such/page');
    await page.waitForURL((u) => u.pathname === '/');
    await page.locator('#FAQ').waitFor({ state: 'attached' });
    await screenshot(page, 'landing-desktop');
    await page.goto('/signup?ref=ABCDEFGHJ');
    expect(await page.getByLabel(/Referral ID/).inputValue()).toBe('ABCDEFGHJ');
    expect(await page.getByLabel(/Referral ID/).getAttribute('readonly')).not.toBeNull();
    await page.getByText('Invalid referral ID').waitFor();
    await settle(page);
    await screenshot(page, 'signup-desktop');
    await page.evaluate(() => localStorage.setItem('access_id', 'x'));
    await page.goto('/verify-otp');
    await settle(page);
    await screenshot(page, 'verify-otp-desktop');
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await screenshot(page, 'landing-phone');
    await closeWithoutErrors({ errors, context });
  });

  it('signs up through a referral link: the ID is prefilled, locked and names the referrer; a bad code, an early resend and a short code are told', async () => {
    const referrer = await signUp(suite.server, 'Rita Referrer');
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const email = `ref${Date.now()}@example.test`;
    await page.goto(`/signup?ref=${referrer.username.toLowerCase()}`);
    const refField = page.getByLabel(/Referral ID/);
    expect(await refField.inputValue()).toBe(referrer.username);
    expect(await refField.getAttribute('readonly')).not.toBeNull();
    await page.getByText('Referred by: Rita Referrer').waitFor();
    expect(await page.getByText('Continue with Google').count()).toBe(0);
    await page.getByLabel('Full Name').fill('Ned Newcomer');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByText('Weak password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('Secret12');
    await page.getByText('Strong password').waitFor();
    await page.getByLabel('Confirm Password').fill('Secret13');
    await page.getByLabel('Confirm Password').blur();
    await page.getByText("Passwords don't match").waitFor();
    await page.getByLabel('Confirm Password').fill('Secret12');
    await page.getByRole('checkbox').check();
    await settle(page);
    await screenshot(page, 'signup-referred-phone');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/verify-otp');

    const code = page.getByLabel('Verification code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await code.fill('12ab3');
    expect(await code.inputValue()).toBe('123');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('OTP must be 6 digits.').waitFor();
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Invalid OTP').waitFor();
    expect(new URL(page.url()).pathname).toBe('/verify-otp');

    // The countdown runs from the stored expiry; at 0 the resend opens and the suite.server's answer is shown.
    expect(await page.getByRole('button', { name: 'Resend OTP' }).count()).toBe(0);
    const stored = Number(await page.evaluate(() => localStorage.getItem('otp_timer_expiry')));
    expect(stored - Date.now()).toBeGreaterThan(280_000);
    await page.evaluate(() => localStorage.setItem('otp_timer_expiry', String(Date.now() - 1000)));
    await page.getByRole('button', { name: 'Resend OTP' }).click();
    await page.getByText('Please wait before requesting a new OTP').waitFor();

    const mail = await suite.server.mailbox.waitFor(email);
    await code.fill(otpFrom(mail.text));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('OTP verified successfully!').waitFor();
    await page.getByText('Ned Newcomer').waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('access_id'), localStorage.getItem('otp_timer_expiry')])).toEqual([null, null]);

    // The referral ID travelled with the registration: the newcomer is in the referrer's team.
    const team = await call<{ data: { name: string }[] }>(suite.server, 'GET', '/api/user/my-team', undefined, referrer.token);
    expect(team.json.data!.data.map((m) => m.name)).toContain('Ned Newcomer');
    await closeWithoutErrors({ errors, context });
  });

  it('types a referral ID live, tells bad credentials, sends an unverified login to the OTP page and reads the social return', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/signup');
    const refField = page.getByLabel(/Referral ID/);
    await refField.fill('ab1');
    expect(await refField.inputValue()).toBe('AB1');
    await page.getByText('Referral ID must be 9 characters (3/9)').waitFor();
    await refField.fill('ab1-');
    await page.getByText('Referral ID must be 9 alphanumeric characters').waitFor();
    await refField.fill('zzzzzzzzzzzz');
    expect(await refField.inputValue()).toBe('ZZZZZZZZZ');
    await page.getByText('Invalid referral ID').waitFor();

    // A taken e-mail is said under the e-mail field.
    const taken = await signUp(suite.server, 'Tom Taken');
    await page.getByLabel('Full Name').fill('Tom Again');
    await page.getByLabel('Email').fill(taken.email);
    await page.getByLabel('Password', { exact: true }).fill('Secret123');
    await page.getByLabel('Confirm Password').fill('Secret123');
    await refField.fill('');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.locator('.field-error', { hasText: 'Email already registered' }).count()).toBe(1);

    // Wrong password: the suite.server's words as a toast, and the page stays.
    await page.goto('/login');
    expect(await page.getByText('Continue with Google').count()).toBe(0);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByLabel('Email').fill(taken.email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong1234');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Invalid email or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await settle(page, { keepToasts: true });
    await expectNoSidewaysShift(page);
    await screenshot(page, 'login-error-phone');

    // An account whose e-mail is not verified gets a fresh code instead of a session.
    const email = `unverified${Date.now()}@example.test`;
    await call(suite.server, 'POST', '/api/auth/register', { name: 'Una Verified', email, password: 'Secret123' });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Secret123');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/verify-otp');
    await page.getByText('Please Verify your email to continue.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('access_id'))).toBeTruthy();
    await page.evaluate(() => localStorage.removeItem('access_id'));
    await page.goto('/verify-otp');
    await page.waitForURL('**/signup');

    // The social return: a user who still needs a referral goes to One Last Step; garbage goes to /login.
    const user = encodeURIComponent(JSON.stringify({ username: 'ABCDEFGHJ', name: 'Sam Social' }));
    await page.goto(`/signup?requiresReferral=true&provider=google&user=${user}`);
    await page.waitForURL('**/referral');
    await page.getByText('One Last Step').waitFor();
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('socialUser')!))).toEqual({ username: 'ABCDEFGHJ', name: 'Sam Social' });
    await settle(page);
    await screenshot(page, 'referral-phone');
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`/referral?requiresReferral=true&user=${user}&ref=abcdefghj`);
    await page.waitForURL((u) => u.pathname === '/referral' && u.search === '');
    await page.getByText('One Last Step').waitFor();
    await page.getByRole('button', { name: 'Register' }).waitFor();
    await page.goto('/referral?requiresReferral=true&user=%7Bnot-json');
    await page.waitForURL('**/login');
    await page.evaluate(() => sessionStorage.clear());
    await page.goto('/referral');
    await page.waitForURL('**/login');
    await page.goto('/signup?requiresReferral=true&provider=facebook&user=%7Bnot-json');
    await page.waitForURL('**/login');
    await page.getByText('Facebook authentication failed').waitFor();
    await closeWithoutErrors({ errors, context });
  });

  it('shows the landing page sections, the FAQ of 6 and the navbar change on scroll', async () => {
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/');
    await page.locator('#FAQ').waitFor({ state: 'attached' });
    for (const id of ['Home', 'HowStart', 'chains', 'wallet', 'About', 'defi', 'Roadmap', 'FAQ']) expect(await page.locator(`#${id}`).count(), id).toBe(1);
    expect(await page.getByTestId('faq-item').count()).toBe(6);
    expect(await page.getByTestId('navbar').getAttribute('data-scrolled')).toBe('false');
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.getByTestId('navbar').getAttribute('data-scrolled')).toBe('true');
    // Start Farming goes to /dashboard (spec section 2); a visitor who is not signed in meets its guard.
    await page.getByRole('link', { name: 'Start Farming' }).click();
    await page.waitForURL('**/login');
    await page.goto('/terms-conditions');
    await page.getByText('April 17, 2025').waitFor();
    await page.goto('/privacy-policy');
    await page.getByText('April 17, 2025').waitFor();
    await closeWithoutErrors({ errors, context });
  });
  it('after too many wrong codes the OTP page says why it waits: the message stays, Verify is off, and the countdown is to a new code', async () => {
    const email = `locked${Date.now()}@example.test`;
    const reg = await call<{ access_id: string }>(suite.server, 'POST', '/api/auth/register', { name: 'Lena Locked', email, password: 'Secret123!' });
    const real = otpFrom((await suite.server.mailbox.waitFor(email)).text);
    const wrong = String((Number(real) + 1) % 1_000_000).padStart(6, '0');
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await page.goto('/privacy-policy');
    await page.evaluate((id) => localStorage.setItem('access_id', id), reg.json.data!.access_id);
    await page.goto('/verify-otp');
    const verify = page.getByRole('button', { name: 'Verify' });
    const field = page.getByLabel('Verification code');
    for (let i = 0; i < 5 && (await verify.isEnabled()); i++) {
      await field.fill(wrong);
      await verify.click();
      await expect.poll(() => page.getByRole('button', { name: 'Loading...' }).count()).toBe(0);
    }
    await expect.poll(() => verify.isDisabled()).toBe(true);
    // Inline under the field, not only in a toast that goes away.
    await page.locator('.field-error, [role="alert"]').filter({ hasText: 'Too many wrong attempts. Please request a new code.' }).first().waitFor();
    await page.getByText('You can request a new code in').waitFor();
    // Typing does not clear the reason while the code is dead.
    await field.fill('123');
    expect(await page.getByText('Too many wrong attempts. Please request a new code.').count()).toBeGreaterThan(0);
    await screenshot(page, 'verify-otp-locked-phone');
    // A reload still knows the code is dead (the server would only answer "Invalid or expired code").
    await page.reload();
    await page.getByText('You can request a new code in').waitFor();
    expect(await verify.isDisabled()).toBe(true);
    await page.locator('.field-error, [role="alert"]').filter({ hasText: 'Too many wrong attempts. Please request a new code.' }).first().waitFor();
    await closeWithoutErrors({ errors, context });
  });
});
