// @vitest-environment happy-dom
import { user } from '@app/core/contracts/user';
import { waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, fail, requestsTo, unreachable, USER_INFO, WALLET } from '../../test/handlers';
import { renderApp, screen, SIGNED_IN } from '../../test/render-app';

/*
 * Issue 32, item 15, at route level (issue 50): a failed read is tried once more quickly, then shown
 * with Retry, and data already shown stays on screen when a refresh fails. Moved down from
 * e2e/weak-network.e2e.ts ('15: retries once quickly, then shows the error with Retry, and keeps the
 * last good data').
 */
const INFO_120 = { ...USER_INFO, user_detail: { ...USER_INFO.user_detail, deposit_balance: 120 } };
const WALLET_120 = { ...WALLET, deposit_balance: 120 };

describe('a weak network on the signed-in pages', () => {
  it('retries once quickly, then shows the error with Retry, and keeps the last good data', async () => {
    let failing = true;
    const broken = () => failing;
    const u = userEvent.setup();
    const started = Date.now();
    await renderApp('/dashboard', {
      user: SIGNED_IN,
      server: [
        fail(user.info, 'INTERNAL', 'Internal error', { while: broken }),
        fail(user.wallet, 'INTERNAL', 'Internal error', { while: broken }),
        answer(user.info, INFO_120),
        answer(user.wallet, WALLET_120),
      ],
    });
    const retry = await screen.findByRole('button', { name: 'Retry' }, { timeout: 6000 });
    // One quick retry (half a second), not three with back-off (1 + 2 + 4 s before the error showed).
    expect(requestsTo(user.info)).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(6000);
    screen.getAllByText('Error loading user data');
    failing = false;
    await u.click(retry);
    await waitFor(() => expect(screen.getByTestId('deposit-balance').textContent).toContain('$120.00'), { timeout: 3000 });

    // The data is there; the next read fails: the wallet says so with Retry, and Retry reads it.
    failing = true;
    await u.click(screen.getAllByRole('link', { name: 'Wallet' })[0]!);
    const again = await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    failing = false;
    await u.click(again);
    await screen.findByTestId('available-balance', {}, { timeout: 3000 });
    // Back home, the refresh fails: the balance stays, with the error and Retry beside it.
    failing = true;
    await u.click(screen.getAllByRole('link', { name: 'Home' })[0]!);
    await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    expect(screen.getByTestId('deposit-balance').textContent).toContain('$120.00');

    // A reload whose read cannot reach the server: the copy saved on the device, its time, the error and Retry.
    await waitFor(() => expect(localStorage.getItem('query_cache')).toContain('"/user/wallet"'));
    const kept = { ...localStorage } as Record<string, string>;
    await renderApp('/wallet', { user: SIGNED_IN, storage: kept, server: [unreachable(user.wallet)] });
    await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    screen.getByTestId('available-balance');
    screen.getByText(/Last updated/);
  });
});
