import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { navigateInApp, screenshot, SIZES } from './harness';
import { simulatePayment, startDemoPayment } from './money-forms';
import { newUserPage, signedInPage } from './pages';
import { browserSuite, fundedUser } from './suites';

/*
 * Issue 47: a page that cannot read a figure says so (the error with Retry, no 0.00, no form), and
 * offline every page shows its own last-known figures with their time, with no error under the
 * offline banner, and reads them again by itself when the network comes back. An outage (a 503
 * that is not maintenance) keeps the screen and says the server cannot be reached, with Retry; an
 * overpaid deposit shows the amount credited everywhere.
 */

/** What the server answers while its database is out of reach (errors table: UNAVAILABLE). */
const OUTAGE_BODY = JSON.stringify({ success: false, code: 'UNAVAILABLE', message: 'Service temporarily unavailable' });

const retryButtons = (page: Page) => page.getByRole('button', { name: 'Retry' });

describe('issue 47: figures that could not be read, and offline figures', () => {
  const suite = browserSuite();
  const funded = fundedUser(suite, 'Figures Offline', 120);

  for (const [size, viewport] of SIZES) {
    it(`a failing wallet read: the error with Retry and no form, never 0.00; Retry reads again (${size})`, async () => {
      const { context, page, errors } = await signedInPage(suite.browser, suite.server, funded.user.token, viewport);
      let failing = true;
      let calls = 0;
      await context.route('**/api/user/wallet', async (route) => {
        calls++;
        if (failing) await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Internal error' }) });
        else await route.continue();
      });
      await page.goto('/withdrawal');
      const error = page.getByTestId('load-error');
      await error.waitFor({ timeout: 10_000 });
      await error.getByText('Failed to fetch wallet information').waitFor();
      await error.getByRole('button', { name: 'Retry' }).waitFor();
      expect(await page.locator('form').count()).toBe(0);
      expect(await page.getByText(/0\.00/).count()).toBe(0);
      expect(await page.getByLabel('Quantity').count()).toBe(0);
      await screenshot(page, `figures-withdrawal-error-${size}`);

      // The transfer page, the same: no form until the balance is read; Retry reads it.
      await navigateInApp(page, '/transfer');
      await page.getByTestId('load-error').getByText('Failed to fetch wallet information').waitFor({ timeout: 10_000 });
      expect(await page.locator('form').count()).toBe(0);
      expect(await page.getByTestId('transfer-available').count()).toBe(0);
      failing = false;
      const before = calls;
      await retryButtons(page).click();
      await page.getByTestId('transfer-available').getByText('Available: 120.00 USDT').waitFor();
      expect(calls).toBeGreaterThan(before);
      await expect.poll(() => page.locator('#transfer-amount').isDisabled()).toBe(false);
      expect(await page.getByTestId('load-error').count()).toBe(0);
      await screenshot(page, `figures-transfer-retried-${size}`);
      expect(errors.filter((e) => !/status of 500/.test(e))).toEqual([]);
      await context.close();
    });

    it(`offline: two pages' last-known figures with their time and no error; back online they read again by themselves (${size})`, async () => {
      const { context, page, errors } = await signedInPage(suite.browser, suite.server, funded.user.token, viewport, 'allow');
      await page.goto('/dashboard');
      await page.getByTestId('deposit-balance').getByText('$120.00').waitFor();
      // A second page, with other reads: the wallet and the rates. Each is kept on its own.
      await navigateInApp(page, '/staking');
      await page.getByTestId('staking-balance').getByText('$120').waitFor();
      await page.waitForFunction(() => {
        const saved = localStorage.getItem('query_cache') ?? '';
        return ['/user/get-info', '/user/wallet', '/user/settings'].every((p) => saved.includes(`"${p}"`));
      });
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      // Nothing but the allowed reads is on the device.
      const saved = (await page.evaluate(() => localStorage.getItem('query_cache'))) ?? '';
      expect(saved).not.toContain(funded.user.token);
      expect(saved).not.toContain(funded.user.email);

      // The installed app opened offline, on the dashboard: its own figures, its time, no error.
      await context.setOffline(true);
      await page.goto('/dashboard');
      await page.getByText(/You are offline/).waitFor();
      await page.getByTestId('deposit-balance').getByText('$120.00').waitFor();
      await page
        .getByText(/Last updated/)
        .first()
        .waitFor();
      expect(await retryButtons(page).count()).toBe(0);
      expect(await page.getByText('Error loading user data').count()).toBe(0);
      await screenshot(page, `figures-offline-dashboard-${size}`);

      // The staking page, read before the dashboard: its figures were not overwritten.
      await navigateInApp(page, '/staking');
      await page.getByTestId('staking-balance').getByText('$120').waitFor({ timeout: 10_000 });
      await page.getByText(/Available: \$120\.00 \(as of /).waitFor();
      expect(await retryButtons(page).count()).toBe(0);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(await page.locator('#stake-amount').isDisabled()).toBe(true);
      await page
        .getByTestId('stale-form-note')
        .getByText(/You are offline/)
        .waitFor();
      await screenshot(page, `figures-offline-staking-${size}`);

      // Back online: the page reads again by itself, no Retry, and the form opens.
      const reread = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/wallet' && r.status() === 200, { timeout: 15_000 });
      await context.setOffline(false);
      await reread;
      await page.getByText(/You are offline/).waitFor({ state: 'detached' });
      await expect.poll(() => page.locator('#stake-amount').isDisabled()).toBe(false);
      expect(await page.getByText(/\(as of /).count()).toBe(0);
      await screenshot(page, `figures-online-again-staking-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    });

    it(`an outage (a 503 that is not maintenance) keeps the screen and offers Retry, never /maintenance (${size})`, async () => {
      const { context, page, errors } = await signedInPage(suite.browser, suite.server, funded.user.token, viewport);
      await page.goto('/dashboard');
      await page.getByTestId('deposit-balance').getByText('$120.00').waitFor();
      let failing = true;
      await context.route('**/api/user/wallet', async (route) => {
        if (failing) await route.fulfill({ status: 503, headers: { 'retry-after': '5' }, contentType: 'application/json', body: OUTAGE_BODY });
        else await route.continue();
      });
      await navigateInApp(page, '/wallet');
      const notice = page.locator('[data-sonner-toast]').filter({ hasText: "We can't reach the server right now" });
      await notice.waitFor({ timeout: 10_000 });
      expect(new URL(page.url()).pathname).toBe('/wallet');
      expect(await page.getByText('Server is under maintenance').count()).toBe(0);
      // The page says which read failed, with its own Retry, and shows no 0.00 for the balance.
      await page.getByTestId('load-error').getByText('Failed to fetch wallet information').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('available-balance').count()).toBe(0);
      await screenshot(page, `outage-wallet-${size}`);
      failing = false;
      await notice.getByRole('button', { name: 'Retry' }).click();
      await page.getByTestId('available-balance').waitFor({ timeout: 10_000 });
      await page.getByText('Deposit balance $120.00', { exact: false }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/wallet');
      expect(errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
      await context.close();
    });

    it(`an overpaid deposit (asked 50, paid 70) is credited 70 and shows 70 everywhere (${size})`, async () => {
      const { page, errors, context } = await newUserPage(suite, `Overpayer ${size}`, '/demo-deposit', viewport);
      await startDemoPayment(page, 'BSC', '50');
      await page.getByText('Payment created successfully').waitFor();
      await simulatePayment(page, '70');
      await page.getByText('Payment confirmed! Received 70.00 USDT.').first().waitFor({ timeout: 30_000 });
      await page.getByTestId('panel-amount').getByText('70.00 USDT').waitFor();
      await screenshot(page, `overpaid-panel-${size}`);
      await page.waitForURL('**/transaction', { timeout: 30_000 });
      await page.getByTestId('total-deposits').getByText('$70.00').waitFor();
      await page.getByTestId('history-amount').first().getByText('$70.00').waitFor();
      await screenshot(page, `overpaid-history-${size}`);
      await page.goto('/dashboard');
      await page.getByTestId('deposit-balance').getByText('$70.00').waitFor();
      await screenshot(page, `overpaid-dashboard-${size}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
