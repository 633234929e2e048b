// @vitest-environment happy-dom
import { team, transfers } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, USER_INFO, WALLET } from '../../test/handlers';
import { renderApp, screen, SIGNED_IN, toastsRaised } from '../../test/render-app';

/*
 * A new user's money screens at route level (issue 50): every list empty, every balance 0. Moved
 * down from e2e/money.e2e.ts ('shows a new user the empty states of the money screens').
 */
const ZERO = {
  ...WALLET,
  balance: 0,
  deposit_balance: 0,
  total_staked: 0,
  total_income: 0,
};
const EMPTY_PAGE = { data: [], pagination: { total: 0, page: 1, perPage: 10 } };
const newUser = () => ({
  user: SIGNED_IN,
  server: [
    answer(user.wallet, ZERO),
    answer(user.info, {
      ...USER_INFO,
      user_detail: { ...USER_INFO.user_detail, deposit_balance: 0, total_staked: 0, total_income: 0, roi_income: 0, balance: 0 },
    }),
    answer(team.directs, EMPTY_PAGE),
    answer(transfers.list, EMPTY_PAGE),
  ],
});

describe('a new user’s money screens', () => {
  it('shows the empty states: no team, no records, no transfers; withdrawing and staking are off', async () => {
    await renderApp('/team', newUser());
    await screen.findByText('No team members found', {}, { timeout: 3000 });

    await renderApp('/transaction', newUser());
    await screen.findByText('No records found', {}, { timeout: 3000 });

    await renderApp('/transfer-history', newUser());
    await screen.findByText('No transfer history found', {}, { timeout: 3000 });

    await renderApp('/wallet', newUser());
    await screen.findByText('Minimum amount is $10', { exact: false }, { timeout: 3000 });
    for (const b of screen.getAllByRole('button', { name: 'Withdraw Funds' })) expect((b as HTMLButtonElement).disabled).toBe(true);

    const app = await renderApp('/withdrawal', newUser());
    await waitFor(() => expect(toastsRaised('error')).toContain('Your balance is less than $50. Redirecting to Wallet page...'), { timeout: 3000 });
    await waitFor(() => expect(app.path()).toBe('/wallet'));

    await renderApp('/staking', newUser());
    await screen.findByText('Not enough balance', {}, { timeout: 3000 });
    expect((screen.getByRole('button', { name: 'Stake' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
