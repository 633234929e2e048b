import { describe, expect, it } from 'vitest';
import { deposit, earnWithdrawableRoi, isoDay, signIn, signUp } from './api-helpers';
import { DESKTOP, PHONE, screenshot } from './harness';
import { closeWithoutErrors, newUserPage, openSignedIn, senderOnTransferPage } from './pages';
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

  it('a withdrawal with a bad address shows the message under the field; the details dialog opens and closes on the overlay', async () => {
    const u = await signUp(suite.server, 'Withdraw Tester');
    await earnWithdrawableRoi(suite.server, u);
    const { page, errors, context } = await openSignedIn(suite, u, '/withdrawal', PHONE);
    await page.getByLabel('Address').fill('0x1234');
    await page.getByRole('button', { name: 'All' }).click();
    await page.getByText('Invalid wallet address for the selected network').waitFor();
    expect(await page.getByLabel('Quantity').inputValue()).toBe('60');
    await page.getByTestId('wd-fee').getByText('3.00 USDT').waitFor();
    await page.getByTestId('wd-receive').getByText('57.00 USDT').waitFor();
    await screenshot(page, 'withdrawal-error-phone');
    await page.getByLabel('Address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.getByText('Withdrawal request created successfully!').waitFor();

    await page.goto('/transaction');
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    await page.getByRole('cell', { name: 'Pending' }).waitFor();
    await page.getByTestId('total-withdrawals').getByText('$60.00').waitFor();
    await page.getByRole('button', { name: 'View' }).first().click();
    await page.getByRole('dialog', { name: 'Transaction Details' }).waitFor();
    await page.getByText('0x52908400...D2E4169EE7').waitFor();
    await screenshot(page, 'transaction-details-phone');
    await page.getByTestId('modal-overlay').click({ position: { x: 10, y: 10 } });
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Deposits' }).click();
    await page.getByRole('cell', { name: '$1,000.00' }).waitFor();
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'transaction-desktop');
    await closeWithoutErrors({ errors, context });
  });

  it('shows a new user the empty states of the money screens', async () => {
    const { page, errors, context } = await newUserPage(suite, 'Empty Person', '/team', PHONE);
    await page.getByText('No team members found').waitFor();
    await screenshot(page, 'team-empty-phone');
    await page.goto('/transaction');
    await page.getByText('No records found').waitFor();
    await page.goto('/transfer-history');
    await page.getByText('No transfer history found').waitFor();
    await page.goto('/wallet');
    await page.getByText('Minimum amount is $10').waitFor();
    expect(await page.getByRole('button', { name: 'Withdraw Funds' }).isDisabled()).toBe(true);
    await page.goto('/withdrawal');
    await page.getByText('Your balance is less than $50. Redirecting to Wallet page...').waitFor();
    await page.waitForURL('**/wallet');
    await page.goto('/staking');
    await page.getByText('Not enough balance').waitFor();
    expect(await page.getByRole('button', { name: 'Stake' }).isDisabled()).toBe(true);
    await closeWithoutErrors({ errors, context });
  });
});
