import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, newPage, otpFrom, PHONE, screenshot, startServer, type E2EServer } from './harness';

describe('sign up, verify, sign in and the guards (browser)', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs up on /signup, verifies the OTP from the SMTP capture, lands on /dashboard, stays signed in, logs out', async () => {
    const { page, errors, context } = await newPage(browser, server.url, PHONE);
    const email = `e2e${Date.now()}@example.test`;
    await page.goto('/signup');
    await screenshot(page, 'signup-phone');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText('Name is required').isVisible()).toBe(true);
    await page.getByText('Please agree to the terms and conditions').waitFor();
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
    await page.getByText('Resend code in').waitFor();
    await screenshot(page, 'verify-otp-phone');

    const mail = await server.mailbox.waitFor(email);
    await page.getByLabel('Verification code').fill(otpFrom(mail.text));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('Eve Tester').waitFor();
    const username = (await page.getByTestId('header-username').textContent())!;
    expect(username).toMatch(/^[A-Z0-9]{9}$/);
    await page.getByText('No Rank').waitFor();
    await page.getByText('No recent activities found').waitFor();
    expect(await page.getByTestId('referral-link').textContent()).toContain(`/signup?ref=${username}`);
    await screenshot(page, 'dashboard-phone');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'dashboard-desktop');

    await page.reload();
    await page.getByText('Eve Tester').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    await page.goto('/login');
    await page.waitForURL('**/dashboard');

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByText('My Account').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Are you sure you want to logout?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Secret123!');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends a guest on /dashboard to /login, an unknown path to /, and shows the screens at both sizes', async () => {
    const { page, errors, context } = await newPage(browser, server.url, DESKTOP);
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    await screenshot(page, 'login-desktop');
    await page.goto('/no/such/page');
    await page.waitForURL((u) => u.pathname === '/');
    await page.locator('#FAQ').waitFor({ state: 'attached' });
    await screenshot(page, 'landing-desktop');
    await page.goto('/signup?ref=ABCDEFGHJ');
    expect(await page.getByLabel(/Referral ID/).inputValue()).toBe('ABCDEFGHJ');
    expect(await page.getByLabel(/Referral ID/).getAttribute('readonly')).not.toBeNull();
    await page.getByText('Invalid referral ID').waitFor();
    await screenshot(page, 'signup-desktop');
    await page.evaluate(() => localStorage.setItem('access_id', 'x'));
    await page.goto('/verify-otp');
    await screenshot(page, 'verify-otp-desktop');
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await screenshot(page, 'landing-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the landing page sections, the FAQ of 6 and the navbar change on scroll', async () => {
    const { page, errors, context } = await newPage(browser, server.url, PHONE);
    await page.goto('/');
    await page.locator('#FAQ').waitFor({ state: 'attached' });
    for (const id of ['Home', 'HowStart', 'chains', 'wallet', 'About', 'defi', 'Roadmap', 'FAQ']) expect(await page.locator(`#${id}`).count(), id).toBe(1);
    expect(await page.getByTestId('faq-item').count()).toBe(6);
    expect(await page.getByTestId('navbar').getAttribute('data-scrolled')).toBe('false');
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.getByTestId('navbar').getAttribute('data-scrolled')).toBe('true');
    await page.getByRole('link', { name: 'Start Farming' }).click();
    await page.waitForURL('**/login');
    await page.goto('/terms-conditions');
    await page.getByText('April 17, 2025').waitFor();
    await page.goto('/privacy-policy');
    await page.getByText('April 17, 2025').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
