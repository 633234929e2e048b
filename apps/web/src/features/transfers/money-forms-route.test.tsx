// @vitest-environment happy-dom
import { transfers, withdrawals } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, requestsTo, WALLET } from '../../test/handlers';
import { renderApp, screen, SIGNED_IN, toastTexts } from '../../test/render-app';

/*
 * The transfer and withdrawal forms at route level (issue 50): their review step, one call per
 * Confirm however it is pressed, and the field errors, moved down from e2e/single-flight.e2e.ts and
 * e2e/money.e2e.ts.
 */
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('/transfer: one transfer per confirm', () => {
  it('double-clicking "Confirm transfer" sends one POST /api/user/fund-transfer and transfers once', async () => {
    await renderApp('/transfer', {
      user: SIGNED_IN,
      server: [
        answer(user.wallet, { ...WALLET, deposit_balance: 100 }),
        answer(user.check, ({ query }) => ({ userName: 'Double Receiver', username: query.get('username')! })),
        answer(transfers.create, { id: '41' }, { message: 'Transfer of 25 USDT to DR1234567 successful' }),
      ],
    });
    await screen.findByText('100.00', { exact: false, selector: '[data-testid="transfer-available"] *, [data-testid="transfer-available"]' });
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('User name'), 'DR1234567');
    await waitFor(() => expect(toastTexts().some((t) => t.includes('Receiver found: DR1234567'))).toBe(true), { timeout: 3000 });
    await u.type(screen.getByLabelText('Amount'), '25');
    await u.click(screen.getByRole('button', { name: 'Transfer' }));
    const review = await screen.findByRole('dialog', { name: 'Review your transfer' });
    within(review).getByText('Double Receiver (DR1234567)');
    within(review).getByText('A transfer cannot be reversed. Check the username and the name above before you confirm.');
    expect(requestsTo(transfers.create)).toHaveLength(0);
    await u.dblClick(within(review).getByRole('button', { name: 'Confirm transfer' }));
    const done = () => toastTexts().filter((t) => t.includes('Transfer of 25 USDT to DR1234567 successful'));
    await waitFor(() => expect(done()).toHaveLength(1));
    await settle();
    expect(requestsTo(transfers.create).map((r) => r.body)).toEqual([{ username: 'DR1234567', amount_usd: 25, type: 'deposit' }]);
    expect(done()).toHaveLength(1);
  });
});

describe('/withdrawal: field errors, the review and one withdrawal per confirm', () => {
  async function withdrawalWith60() {
    await renderApp('/withdrawal', {
      user: SIGNED_IN,
      server: [answer(user.wallet, { ...WALLET, balance: 60 }), answer(withdrawals.create, { id: '9' })],
    });
    await screen.findByText('Available: 60.00 USDT');
    return userEvent.setup();
  }

  it('a bad address shows the message under the field; All fills the balance with its fee; a good address reviews and withdraws', async () => {
    const u = await withdrawalWith60();
    await u.type(screen.getByLabelText('Address'), '0x1234');
    await u.click(screen.getByRole('button', { name: 'All' }));
    await screen.findByText('Invalid wallet address for the selected network');
    expect((screen.getByLabelText('Quantity') as HTMLInputElement).value).toBe('60');
    expect(screen.getByTestId('wd-fee').textContent).toContain('3.00 USDT');
    expect(screen.getByTestId('wd-receive').textContent).toContain('57.00 USDT');
    await u.clear(screen.getByLabelText('Address'));
    await u.type(screen.getByLabelText('Address'), ADDRESS);
    await waitFor(() => expect(screen.queryByText('Invalid wallet address for the selected network')).toBeNull());
    await u.click(screen.getByRole('button', { name: 'Withdraw' }));
    const review = await screen.findByRole('dialog', { name: 'Review your withdrawal' });
    within(review).getByText('57.00 USDT');
    within(review).getByText(ADDRESS);
    expect(requestsTo(withdrawals.create)).toHaveLength(0);
    await u.click(within(review).getByRole('button', { name: 'Confirm withdrawal' }));
    await waitFor(() => expect(toastTexts().some((t) => t.includes('Withdrawal request created successfully!'))).toBe(true));
    expect(requestsTo(withdrawals.create).map((r) => r.body)).toEqual([{ amount_usd: 60, network: 'BSC', token: 'USDT', wallet_address: ADDRESS }]);
  });

  it('two clicks on "Confirm withdrawal" in one task send one POST /api/withdraw/create', async () => {
    const u = await withdrawalWith60();
    await u.type(screen.getByLabelText('Address'), ADDRESS);
    await u.type(screen.getByLabelText('Quantity'), '20');
    await u.click(screen.getByRole('button', { name: 'Withdraw' }));
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm withdrawal' });
    confirm.click();
    confirm.click();
    await waitFor(() => expect(toastTexts().filter((t) => t.includes('Withdrawal request created successfully!'))).toHaveLength(1));
    await settle();
    expect(requestsTo(withdrawals.create)).toHaveLength(1);
  });
});
