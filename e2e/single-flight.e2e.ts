import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { staking, transfers as transferContracts, user as userContracts } from '@app/core/contracts';
import { api, deposit, isoDay, signIn, signUp, type ApiUser } from './api-helpers';
import { newPage, PHONE, screenshot, type E2EServer } from './harness';
import { browserSuite } from './suites';

/** Counts the requests the page sends with this method to this API path. */
function countRequests(page: Page, method: string, path: string): { readonly count: number } {
  const seen = { count: 0 };
  page.on('request', (req) => {
    if (req.method() === method && new URL(req.url()).pathname === path) seen.count += 1;
  });
  return seen;
}

async function wallet(server: E2EServer, user: ApiUser): Promise<{ deposit_balance: number; total_staked: number; balance: number }> {
  const res = await api(server, userContracts.wallet, { token: user.token });
  return res.json.data!;
}

async function stakes(server: E2EServer, user: ApiUser): Promise<unknown[]> {
  const res = await api(server, staking.history, { query: { page: 1, per_page: 10 }, token: user.token });
  return res.json.data!.data;
}

async function transfers(server: E2EServer, user: ApiUser): Promise<unknown[]> {
  const res = await api(server, transferContracts.list, { query: { page: 1, per_page: 10 }, token: user.token });
  return res.json.data!.data;
}

/** Lets any second request a double action may have started reach the server and settle. */
const settle = (page: Page) => page.waitForTimeout(1500);

describe('money confirms are single-flight: a double click or a double Enter moves money once (browser)', () => {
  const suite = browserSuite();

  it('double-clicking "Confirm stake" sends one POST /api/stake/create and stakes once', async () => {
    const u = await signUp(suite.server, 'Double Stake');
    await deposit(suite.server, u, 200);
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const posts = countRequests(page, 'POST', '/api/stake/create');
    await signIn(page, u, '/staking');
    await page.getByTestId('staking-balance').getByText('$200').waitFor();
    await page.getByLabel('Amount').fill('50');
    await page.getByRole('button', { name: 'Stake', exact: true }).click();
    const confirm = page.getByRole('button', { name: 'Confirm stake' });
    await confirm.waitFor();
    await page.waitForTimeout(400); // the dialog's 300 ms entry animation
    await screenshot(page, 'stake-review-phone');
    // Hold the answer back so the busy dialog can be seen (and photographed) while the call runs.
    await page.route('**/api/stake/create', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await confirm.dblclick();
    const busy = page.getByRole('dialog').getByRole('button', { name: 'Processing...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Back' }).isDisabled()).toBe(true);
    await screenshot(page, 'stake-review-busy-phone');
    await page.getByText('Staking successful!').first().waitFor();
    await settle(page);

    expect(posts.count).toBe(1);
    expect(await page.getByText('Staking successful!').count()).toBe(1);
    expect(await stakes(suite.server, u)).toHaveLength(1);
    expect(await wallet(suite.server, u)).toMatchObject({ deposit_balance: 150, total_staked: 50 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('two clicks on "Confirm stake" with no await between them send one request', async () => {
    const u = await signUp(suite.server, 'Twice Stake');
    await deposit(suite.server, u, 200);
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const posts = countRequests(page, 'POST', '/api/stake/create');
    await signIn(page, u, '/staking');
    await page.getByTestId('staking-balance').getByText('$200').waitFor();
    await page.getByLabel('Amount').fill('50');
    await page.getByRole('button', { name: 'Stake', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm stake' }).waitFor();
    await page.waitForTimeout(400);
    // Both clicks land in the same task, before React can re-render the button as disabled.
    await page.evaluate(() => {
      const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Confirm stake')!;
      button.click();
      button.click();
    });
    await page.getByText('Staking successful!').first().waitFor();
    await settle(page);

    expect(posts.count).toBe(1);
    expect(await stakes(suite.server, u)).toHaveLength(1);
    expect(await wallet(suite.server, u)).toMatchObject({ deposit_balance: 150, total_staked: 50 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Enter twice in the stake form and twice on "Confirm stake" stakes once', async () => {
    const u = await signUp(suite.server, 'Enter Stake');
    await deposit(suite.server, u, 200);
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const posts = countRequests(page, 'POST', '/api/stake/create');
    await signIn(page, u, '/staking');
    await page.getByTestId('staking-balance').getByText('$200').waitFor();
    await page.getByLabel('Amount').fill('50');
    // Enter twice in the amount field: the first opens the review, the second lands in the dialog
    // (its first control is Back) or in the field again; neither may start a stake.
    await page.getByLabel('Amount').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(400);
    expect(posts.count).toBe(0);
    const confirm = page.getByRole('button', { name: 'Confirm stake' });
    if (!(await confirm.isVisible())) await page.getByRole('button', { name: 'Stake', exact: true }).click();
    await confirm.waitFor();
    await page.waitForTimeout(400);
    await confirm.focus();
    await Promise.all([page.keyboard.press('Enter'), page.keyboard.press('Enter')]);
    await page.getByText('Staking successful!').first().waitFor();
    await settle(page);

    expect(posts.count).toBe(1);
    expect(await stakes(suite.server, u)).toHaveLength(1);
    expect(await wallet(suite.server, u)).toMatchObject({ deposit_balance: 150, total_staked: 50 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('double-clicking "Confirm transfer" sends one POST /api/user/fund-transfer and transfers once', async () => {
    const a = await signUp(suite.server, 'Double Sender');
    const b = await signUp(suite.server, 'Double Receiver');
    await deposit(suite.server, a, 100);
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const posts = countRequests(page, 'POST', '/api/user/fund-transfer');
    await signIn(page, a, '/transfer');
    await page.getByTestId('transfer-available').getByText('100.00').waitFor();
    await page.getByLabel('User name').fill(b.username);
    await page.getByText(`Receiver found: ${b.username}`).waitFor();
    await page.getByLabel('Amount').fill('25');
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const confirm = page.getByRole('button', { name: 'Confirm transfer' });
    await confirm.waitFor();
    await page.waitForTimeout(400);
    await confirm.dblclick();
    await page.getByText(`Transfer of 25 USDT to ${b.username} successful`).first().waitFor();
    await settle(page);

    expect(posts.count).toBe(1);
    expect(await page.getByText(`Transfer of 25 USDT to ${b.username} successful`).count()).toBe(1);
    expect(await transfers(suite.server, a)).toHaveLength(1);
    expect(await transfers(suite.server, b)).toHaveLength(1);
    expect((await wallet(suite.server, a)).deposit_balance).toBe(75);
    expect((await wallet(suite.server, b)).deposit_balance).toBe(25);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('two clicks on "Confirm withdrawal" in one task send one POST /api/withdraw/create', async () => {
    const u = await signUp(suite.server, 'Double Withdraw');
    await deposit(suite.server, u, 1000);
    await api(suite.server, staking.create, { body: { amount_usd: 1000 }, token: u.token });
    await suite.server.cli(['jobs:roi', '--date', isoDay(12)]);
    expect((await wallet(suite.server, u)).balance).toBe(60);
    const { page, errors, context } = await newPage(suite.browser, suite.server.url, PHONE);
    const posts = countRequests(page, 'POST', '/api/withdraw/create');
    await signIn(page, u, '/withdrawal');
    await page.getByLabel('Address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await page.getByLabel('Quantity').fill('20');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm withdrawal' }).waitFor();
    await page.waitForTimeout(400);
    await page.evaluate(() => {
      const button = Array.from(document.querySelectorAll('button')).find((b) => b.textContent === 'Confirm withdrawal')!;
      button.click();
      button.click();
    });
    await page.getByText('Withdrawal request created successfully!').first().waitFor();
    await settle(page);

    expect(posts.count).toBe(1);
    expect((await wallet(suite.server, u)).balance).toBe(40);
    expect(errors).toEqual([]);
    await context.close();
  });
});
