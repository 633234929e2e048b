import { describe, expect, it } from 'vitest';
import { demoPayments, payments } from '@app/core/contracts/payments';
import { api, signIn, signUp, type ApiUser } from './api-helpers';
import { newPage, PHONE, screenshot, type E2EServer } from './harness';
import { closeWithoutErrors, newUserPage, openSignedIn } from './pages';
import { startDemoPayment } from './money-forms';
import { browserSuite } from './suites';
import { recordToasts, toastsSeen } from './toasts';

/** Waits until the server reports this status for the payment (the sandbox chain settles in a few seconds). */
async function waitForStatus(server: E2EServer, user: ApiUser, paymentId: string, status: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await api(server, demoPayments.status, { body: { payment_id: paymentId }, token: user.token });
    if (s.json.data?.status === status) return;
    if (Date.now() > deadline) throw new Error(`payment ${paymentId} never reached ${status}: ${JSON.stringify(s.json)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('deposit states, amounts and history errors (phone walkthrough)', () => {
  const suite = browserSuite();

  it('a partially paid payment: the refused cancel closes the dialog and refreshes; then no Cancel, no running timer, not pending', async () => {
    const { user: u, page, errors, context } = await newUserPage(suite, 'Partial Payer', '/demo-deposit', PHONE);
    await page.getByText('No pending payments found').waitFor();
    await startDemoPayment(page, 'BSC', '100');
    await page.getByText('Payment created successfully').waitFor();
    await page.getByText('Payment Timer:').waitFor();

    // 60 of 100 arrives from outside the page (a wallet app, or `npm run cli -- sandbox:pay`).
    const pending = await api(suite.server, demoPayments.pending, { token: u.token });
    const id = pending.json.data![0]!.payment_id;
    await api(suite.server, payments.sandboxPay, { params: { payment_id: id }, body: { amount: 60 }, token: u.token });
    await waitForStatus(suite.server, u, id, 'partially_paid');

    // The page has not looked yet (it re-checks every 30 s while waiting), so Cancel is still there.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, Cancel Payment' }).click();
    await page.getByText('Payment can no longer be cancelled').waitFor();
    // The refusal closes the dialog and refreshes the payment.
    await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 });
    await page.getByTestId('partial-box').waitFor({ timeout: 10_000 });
    // A partial payment stays on the page: no countdown away from it (issue 32, item 6).

    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    expect(await page.getByText('Payment Timer:').count()).toBe(0);
    expect(await page.getByText('Payment window expired').count()).toBe(0);
    await page.getByText('No pending payments found').waitFor();
    expect(await page.getByText(`Payment #${id}`).count()).toBe(0);
    await screenshot(page, 'deposit-partial-closed-phone');

    // The same after a reload: the closed payment is neither reopened nor listed as pending.
    await page.reload();
    await page.getByRole('heading', { name: 'Pending Payments' }).waitFor();
    await page.getByText('No pending payments found').waitFor();
    expect(await page.getByText(`Payment #${id}`).count()).toBe(0);
    await closeWithoutErrors({ errors, context });
  });

  it('a partially paid payment reached through Check Status shows no Cancel and no countdown', async () => {
    const { user: u, page, context } = await newUserPage(suite, 'Status Checker', '/demo-deposit', PHONE);
    await startDemoPayment(page, 'TRX', '50');
    await page.getByText('Payment created successfully').waitFor();
    const pending = await api(suite.server, demoPayments.pending, { token: u.token });
    const id = pending.json.data![0]!.payment_id;
    await api(suite.server, payments.sandboxPay, { params: { payment_id: id }, body: { amount: 20 }, token: u.token });
    await waitForStatus(suite.server, u, id, 'partially_paid');
    await page.getByRole('button', { name: 'Check Status' }).click();
    await page.getByTestId('partial-box').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    expect(await page.getByText('Payment Timer:').count()).toBe(0);
    await page.getByText('No pending payments found').waitFor();
    await context.close();
  });

  it('a cancelled payment (amount_received 0) shows the same amount on the dashboard and in /transaction: $0.00 of $50.00', async () => {
    const u = await signUp(suite.server, 'Cancelled Amount');
    const created = await api(suite.server, demoPayments.create, { body: { amount: 50, currency: 'usdttrc20' }, token: u.token });
    const cancelled = await api(suite.server, demoPayments.cancel, { body: { payment_id: created.json.data!.paymentId }, token: u.token });
    expect(cancelled.json.success).toBe(true);

    const { page, errors, context } = await openSignedIn(suite, u, '/dashboard', PHONE);
    const activity = page.locator('section', { has: page.getByRole('heading', { name: 'Recent Activities' }) }).locator('li');
    await activity.first().waitFor();
    expect(squash(await activity.first().innerText())).toContain('$0.00 of $50.00');
    await screenshot(page, 'dashboard-cancelled-amount-phone');

    await page.goto('/transaction');
    // Issue 32, item 3: what arrived of what was asked, in grey, and called what it is.
    await page.getByRole('cell', { name: 'Cancelled' }).waitFor();
    await page.getByRole('cell', { name: '$0.00 of $50.00' }).waitFor();
    await screenshot(page, 'transaction-cancelled-amount-phone');
    await closeWithoutErrors({ errors, context });
  });

  it('the chain options read cleanly on /deposit and /demo-deposit (no nested parentheses)', async () => {
    const { page, errors, context } = await newUserPage(suite, 'Chain Reader', '/deposit', PHONE);
    await page.getByLabel('Chain').waitFor();
    const options = (await page.getByLabel('Chain').locator('option').allTextContents()).map(squash);
    expect(options).toEqual(['Select a chain', 'BSC · BEP20 · USDT', 'Polygon · MATIC · USDT', 'Tron · TRC20 · USDT']);
    for (const o of options) expect(o).not.toMatch(/\(.*\(/);
    await page.getByLabel('Chain').selectOption('usdttrc20');
    await screenshot(page, 'deposit-chain-select-phone');

    await page.goto('/demo-deposit');
    await page.getByRole('button', { name: 'Select Chain' }).click();
    const demo = (await page.getByRole('option').allTextContents()).map(squash);
    expect(demo).toEqual(['BSC BNB · USDT', 'Polygon MATIC · USDT', 'TRON TRX · USDT']);
    await screenshot(page, 'demo-deposit-chain-options-phone');
    await closeWithoutErrors({ errors, context });
  });

  it('a failed history request on /transaction toasts its message once', async () => {
    const u = await signUp(suite.server, 'History Failer');
    const { page, context } = await newPage(suite.browser, suite.server.url, PHONE);
    await recordToasts(page);
    await page.route('**/api/user/get-history**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Internal server error' }) }),
    );
    await signIn(page, u, '/transaction');
    // The table shows the message once the retry is spent (one quick retry, issue 32).
    await page.getByRole('alert').filter({ hasText: 'Internal server error' }).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1_000);
    await screenshot(page, 'transaction-history-error-phone');
    expect((await toastsSeen(page)).filter((t) => t.includes('Internal server error'))).toHaveLength(1);
    // The phone comes back to the browser: the history is fetched again (with its one retry) and fails the same way.
    let failed = 0;
    page.on('response', (r) => {
      if (r.url().includes('/api/user/get-history?type=transaction')) failed += 1;
    });
    await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
    await page.evaluate(() => {
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => failed, { timeout: 20_000 }).toBe(2);
    await page.waitForTimeout(1_000);
    expect((await toastsSeen(page)).filter((t) => t.includes('Internal server error'))).toHaveLength(1);
    // ... and so does the Withdrawals tab.
    let withdrawals = 0;
    page.on('response', (r) => {
      if (r.url().includes('/api/user/get-history?type=withdrawal')) withdrawals += 1;
    });
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    await expect.poll(() => withdrawals, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(1_000);
    await page.getByRole('alert').filter({ hasText: 'Internal server error' }).first().waitFor();
    expect((await toastsSeen(page)).filter((t) => t.includes('Internal server error'))).toHaveLength(1);
    await context.close();
  });
});
