import { describe, expect, it } from 'vitest';
import { deposit, isoDay, signIn, signUp } from './api-helpers';
import { DESKTOP, PHONE, screenshot } from './harness';
import { closeWithoutErrors, openSignedIn, senderOnTransferPage } from './pages';
import { fillTransferForm } from './money-forms';
import { browserSuite } from './suites';

describe('money flows in the browser: stake, ROI, transfer, withdraw, history', () => {
  const suite = browserSuite();

  it('a funded user stakes from /staking; wallet, dashboard and history move; after the ROI job /income shows the ROI row', async () => {
    const u = await signUp(suite.server, 'Stake Tester');
    await deposit(suite.server, u, 1000);
    const { page, errors, context } = await openSignedIn(suite, u, '/staking', PHONE);
    await page.getByTestId('staking-balance').getByText('$1.00K').waitFor();
    await page.getByLabel('Amount').fill('55');
    await page.getByRole('button', { name: 'Stake' }).click();
    await page.getByText('Amount must be a multiple of 10').waitFor();
    await screenshot(page, 'staking-error-phone');
    await page.getByLabel('Amount').fill('1000');
    await page.getByRole('button', { name: 'Stake' }).click();
    await page.getByRole('button', { name: 'Confirm stake' }).click();
    await page.getByText('Staking successful!').waitFor();
    await page.getByTestId('staking-total').getByText('$1.00K').waitFor();
    await page.getByText('Not enough balance').waitFor();

    await page.getByRole('link', { name: 'Wallet' }).click();
    await page.getByTestId('wallet-total-staked').getByText('$1K').waitFor();
    await screenshot(page, 'wallet-phone');
    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByTestId('total-staked').getByText('$1.00K').waitFor();
    await page.getByRole('listitem').filter({ hasText: '$1,000.00' }).first().waitFor();
    await page.goto('/staking/history');
    await page.getByRole('cell', { name: '$1,000.00' }).waitFor();
    expect(await page.getByRole('cell', { name: new Date().toISOString().slice(0, 10) }).count()).toBe(1);
    await screenshot(page, 'staking-history-phone');

    const roi = await suite.server.cli(['jobs:roi', '--date', isoDay(10)]);
    expect(roi.code, roi.stderr).toBe(0);
    expect(roi.stdout).toContain('10 credits');
    await page.goto('/income');
    await page.getByRole('cell', { name: '+$5.00' }).first().waitFor();
    await page.getByTestId('total-income').getByText('$50.00').waitFor();
    await screenshot(page, 'income-phone');
    await page.getByRole('tab', { name: 'Reward Income' }).click();
    await page.getByText('No reward income history found').waitFor();
    await page.getByText('Reward levels').waitFor();
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'income-desktop');
    await closeWithoutErrors({ errors, context });
  });

  it('a transfer shows Sent on one side and Received on the other', async () => {
    const { sender: a, receiver: b, page, errors, context } = await senderOnTransferPage(suite, 'Sender Person', 'Receiver Person');
    await fillTransferForm(page, b.username, '25');
    await page.getByRole('button', { name: 'Confirm transfer' }).click();
    await page.getByText(`Transfer of 25 USDT to ${b.username} successful`).waitFor();
    await page.goto('/transfer-history');
    await page.getByText('Sent', { exact: true }).waitFor();
    await screenshot(page, 'transfer-history-phone');
    await signIn(page, b, '/transfer-history');
    await page.getByText('Received', { exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: a.username }).count()).toBe(1);
    await closeWithoutErrors({ errors, context });
  });
});
