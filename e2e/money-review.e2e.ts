import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { staking } from '@app/core/contracts';
import { payments } from '@app/core/contracts/payments';
import { api, deposit, isoDay, signIn, signUp } from './api-helpers';
import { newPage, screenshot, SIZES } from './harness';
import { closeWithoutErrors, openSignedIn } from './pages';
import { browserSuite, fundedUser } from './suites';
import { recordToasts, toastsSeen } from './toasts';

/** Counts the requests the page sends to one API path. */
function countCalls(page: Page, path: string): { n: number } {
  const c = { n: 0 };
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === path) c.n += 1;
  });
  return c;
}

async function inViewport(page: Page, selector: ReturnType<Page['getByRole']>): Promise<boolean> {
  const box = await selector.boundingBox();
  const vp = page.viewportSize()!;
  return box !== null && box.x >= 0 && box.x + box.width <= vp.width && box.width > 0;
}

describe('money screens people can trust: a review before each money call, a payment that reopens, the history table on a phone', () => {
  const suite = browserSuite();
  const funded = fundedUser(suite, 'Table Person', 100);

  for (const [size, viewport] of SIZES) {
    it(`shows the View button of /transaction inside the screen, as a labelled card on a phone (${size})`, async () => {
      const { page, errors, context } = await openSignedIn(suite, funded.user, '/transaction', viewport);
      const view = page.getByRole('button', { name: 'View' }).first();
      await view.waitFor();
      expect(await view.isVisible()).toBe(true);
      expect(await inViewport(page, view)).toBe(true);
      // The scroll region can be reached by keyboard and has a name.
      const region = page.getByRole('region', { name: 'Table' });
      expect(await region.getAttribute('tabindex')).toBe('0');
      // On a phone every value carries its column's label.
      if (size === 'phone') {
        await page.getByRole('cell', { name: /^Amount\s*\$100\.00$/ }).waitFor();
        // The header row is kept for screen readers only (a 1 px clipped box).
        expect((await page.locator('thead').first().boundingBox())!.width).toBeLessThanOrEqual(1);
      } else {
        expect((await page.locator('thead').first().boundingBox())!.width).toBeGreaterThan(300);
      }
      await screenshot(page, `ux-transaction-${size}`);
      await view.click();
      await page.getByRole('dialog', { name: 'Transaction Details' }).waitFor();
      // Focus moves into the dialog and comes back to the View button after Escape.
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('View');

      await closeWithoutErrors({ errors, context });
    });

    it(`reopens the payment panel after a reload and from its pending card (${size})`, async () => {
      const u = await signUp(suite.server, `Reopen ${size}`);
      const { page, errors, context } = await openSignedIn(suite, u, '/demo-deposit', viewport);
      // The chain select works from the keyboard: ArrowDown opens, arrows move, Enter chooses.
      await page.getByRole('button', { name: 'Select Chain' }).focus();
      await page.keyboard.press('ArrowDown');
      await page.getByRole('listbox').waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.getByRole('listbox').waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Select Chain' }).textContent()).toContain('BSC');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe('listbox');
      await page.getByLabel('Enter Amount').fill('30');
      await page.getByRole('button', { name: 'Deposit', exact: true }).click();
      await page.getByText('Payment created successfully').waitFor();
      const address = await page.getByTestId('pay-address').getAttribute('title');
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);

      await page.reload();
      await page.getByTestId('payment-qr').locator('svg').waitFor();
      expect(await page.getByTestId('pay-address').getAttribute('title')).toBe(address);
      await page.getByText('Payment Timer:').waitFor();
      await page.getByText('30.00 USDT').first().waitFor();
      expect(await page.getByLabel('Enter Amount').isDisabled()).toBe(true);
      await screenshot(page, `ux-demo-deposit-reopened-${size}`);

      // Away and back (a phone user leaves for the wallet app): the card reopens it too.
      await page.goto('/dashboard');
      await page.goto('/demo-deposit');
      await page.getByTestId('payment-qr').locator('svg').waitFor();
      await page.getByTestId('open-payment').first().click();
      expect(await page.getByTestId('pay-address').getAttribute('title')).toBe(address);

      // The first flow (/deposit) reopens from the server as well.
      const created = await api(suite.server, payments.create, { body: { amount: 25, currency: 'usdttrc20' }, token: u.token });
      expect(created.status).toBe(200);
      await page.goto('/deposit');
      await page.getByText('Time left:').waitFor();
      await page.getByText('25.00 USDT').first().waitFor();
      const cards = page.getByTestId('open-payment');
      expect(await cards.count()).toBe(2);
      await cards.filter({ hasText: created.json.data!.payment_id }).click();
      await page.getByText('25.00 USDT').first().waitFor();
      await screenshot(page, `ux-deposit-reopened-${size}`);
      await closeWithoutErrors({ errors, context });
    });
  }

  for (const [size, viewport] of SIZES) {
    it(`asks for a review before each money call and shows no error after a successful withdrawal (${size})`, async () => {
      const u = await signUp(suite.server, `Review ${size}`);
      const friend = await signUp(suite.server, `Friend ${size}`);
      await deposit(suite.server, u, 1000);
      const { page, errors, context } = await newPage(suite.browser, suite.server.url, viewport);
      await recordToasts(page);

      // Stake: review shows the amount, the lock and the cap before the call.
      const stakes = countCalls(page, '/api/stake/create');
      await signIn(page, u, '/staking');
      await page.getByTestId('staking-balance').getByText('$1.00K').waitFor();
      // A rule broken is told to screen readers too: the field is invalid and described by the message.
      await page.getByLabel('Amount').fill('55');
      await page.getByRole('button', { name: 'Stake', exact: true }).click();
      await page.getByText('Amount must be a multiple of 10').waitFor();
      expect(await page.getByLabel('Amount').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Amount').evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(
        'Amount must be a multiple of 10',
      );
      expect(stakes.n).toBe(0);
      await page.getByLabel('Amount').fill('900');
      await page.getByRole('button', { name: 'Stake', exact: true }).click();
      const review = page.getByRole('dialog', { name: 'Review your stake' });
      await review.waitFor();
      await review.getByText('$900.00').first().waitFor();
      await review.getByText('200% = $1,800.00').waitFor();
      await review.getByText('The amount is locked in the stake and is not returned separately: the cap includes it.').waitFor();
      expect(stakes.n).toBe(0);
      await screenshot(page, `ux-review-stake-${size}`);
      await page.getByRole('button', { name: 'Confirm stake' }).click();
      await page.getByText('Staking successful!').waitFor();
      expect(stakes.n).toBe(1);

      // Transfer: the recipient's name and the wallet before the call.
      const transfers = countCalls(page, '/api/user/fund-transfer');
      await page.goto('/transfer');
      await page.getByLabel('User name').fill(friend.username);
      await page.getByText(`Receiver found: ${friend.username}`).waitFor();
      await page.getByLabel('Amount').fill('50');
      await page.getByRole('button', { name: 'Transfer', exact: true }).click();
      const tReview = page.getByRole('dialog', { name: 'Review your transfer' });
      await tReview.getByText(`Friend ${size} (${friend.username})`).waitFor();
      await tReview.getByText('A transfer cannot be reversed. Check the username and the name above before you confirm.').waitFor();
      expect(transfers.n).toBe(0);
      await screenshot(page, `ux-review-transfer-${size}`);
      await page.getByRole('button', { name: 'Confirm transfer' }).click();
      await page.getByText(`Transfer of 50 USDT to ${friend.username} successful`).waitFor();
      expect(transfers.n).toBe(1);

      // Withdrawal: 60 of income; taking 50 leaves 10, under the page's entry rule of 50.
      await api(suite.server, staking.create, { body: { amount_usd: 50 }, token: u.token });
      expect((await suite.server.cli(['jobs:roi', '--date', isoDay(12)])).code).toBe(0);
      const withdrawals = countCalls(page, '/api/withdraw/create');
      await page.goto('/withdrawal');
      await page.getByLabel('Address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
      await page.getByLabel('Quantity').fill('50');
      await page.getByTestId('wd-fee').getByText('2.50 USDT').waitFor();
      await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      const wReview = page.getByRole('dialog', { name: 'Review your withdrawal' });
      await wReview.getByText('47.50 USDT').waitFor();
      await wReview.getByText('0x52908400098527886E0F7030069857D2E4169EE7').waitFor();
      expect(withdrawals.n).toBe(0);
      await screenshot(page, `ux-review-withdrawal-${size}`);
      const walletRefetch = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/wallet');
      await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
      await page.getByText('Withdrawal request created successfully!').waitFor();
      expect(withdrawals.n).toBe(1);
      // The wallet is re-read after the call; the new balance (under $50) must not bounce the person.
      const w = await (await walletRefetch).json();
      expect(w.data.balance).toBeLessThan(50);
      // Rendered with the new balance: the guard's effect has had its chance to run.
      await page.getByText('Available: 7.00 USDT').waitFor();
      expect(page.url()).toMatch(/\/withdrawal$/);
      expect((await toastsSeen(page)).filter((t) => t.includes('less than $50'))).toEqual([]);
      await screenshot(page, `ux-withdrawal-done-${size}`);

      // The pending withdrawal and its fee show where balances show; the balance model is explained.
      await page.goto('/wallet');
      const pendingBox = page.getByTestId('pending-withdrawals');
      await pendingBox.getByText('1 withdrawal pending').waitFor();
      await pendingBox.getByText('$47.50').waitFor();
      await pendingBox.getByText('$2.50').waitFor();
      await page.getByText('Your income (ROI, referral, rewards): the only balance you can withdraw.').waitFor();
      await screenshot(page, `ux-wallet-${size}`);
      await page.getByRole('button', { name: 'How balances work' }).click();
      await page.getByRole('dialog', { name: 'How balances work' }).getByText('This is the only balance you can withdraw', { exact: false }).waitFor();
      await screenshot(page, `ux-balance-sheet-${size}`);
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await page.goto('/transaction');
      await page.getByRole('tab', { name: 'Withdrawals' }).click();
      await page.getByText('fee $2.50 · receive $47.50').waitFor();
      await page.getByTestId('pending-withdrawals').waitFor();
      await screenshot(page, `ux-transaction-withdrawals-${size}`);
      await closeWithoutErrors({ errors, context });
    });
  }
});
