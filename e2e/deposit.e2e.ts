import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from './harness';
import { closeWithoutErrors, newUserPage } from './pages';
import { simulatePayment, startDemoPayment } from './money-forms';
import { browserSuite } from './suites';

describe('deposit through the sandbox chain (browser)', () => {
  const suite = browserSuite();

  it('creates a demo deposit, shows the QR and countdown, takes a short payment, redirects to /transaction, then stakes it', async () => {
    const { page, errors, context } = await newUserPage(suite, 'Depositor', '/demo-deposit', PHONE);
    await page.getByRole('heading', { name: 'Create Payment' }).waitFor();
    await page.getByText('No pending payments found').waitFor();
    await startDemoPayment(page, 'BSC', '100');
    await page.getByText('Payment created successfully').waitFor();
    await page.getByTestId('payment-qr').locator('svg').waitFor();
    await page.getByText('Payment Timer:').waitFor();
    await page.getByText('Send only USDT to this deposit address').waitFor();
    await page.getByText('Use the BSC (BEP20) network only').waitFor();
    expect(await page.getByLabel('Enter Amount').isDisabled()).toBe(true);
    // The whole address in groups of 4 (issue 32, item 7).
    expect(await page.getByTestId('pay-address').textContent()).toMatch(/^0x[0-9a-fA-F]{4}( [0-9a-fA-F]{4}){9}$/);
    await screenshot(page, 'deposit-waiting-phone');

    await simulatePayment(page, '60');
    await page.getByText('Payment status changed to:').first().waitFor();
    await screenshot(page, 'deposit-confirming-phone');
    await page.getByText('Payment completed with partial amount! Received 60.00 USDT (Expected: 100.00 USDT).').waitFor({ timeout: 30_000 });
    await page.getByTestId('partial-box').waitFor();
    await page.getByText('Payment Completed (Partial Amount)').waitFor();
    await screenshot(page, 'deposit-partial-phone');
    // A partial payment stays on the page (issue 32, item 6); /transaction shows what arrived of what was asked.
    await page.getByRole('link', { name: 'Transaction' }).first().click();
    await page.waitForURL('**/transaction');
    await page.getByRole('cell', { name: '$60.00 of $100.00' }).waitFor();
    await page.getByRole('cell', { name: 'Partially paid' }).waitFor();
    await page.getByTestId('total-deposits').getByText('$60.00').waitFor();

    await page.goto('/staking');
    await page.getByLabel('Amount').fill('60');
    await page.getByRole('button', { name: 'Stake' }).click();
    await page.getByRole('button', { name: 'Confirm stake' }).click();
    await page.getByText('Staking successful!').waitFor();
    await closeWithoutErrors({ errors, context });
  });
});
