// @vitest-environment happy-dom
import type { DataOut } from '@app/core/contracts/define';
import { history, type THistoryRecord } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { act, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, EMPTY_HISTORY, fail, requestsTo, unreachable, USER_INFO } from '../../test/handlers';
import { renderApp, screen, SIGNED_IN, toastsRaised } from '../../test/render-app';

/*
 * /transaction at route level (issue 50): a failed history read toasts once and offers Retry, a
 * cancelled payment reads the same as on the dashboard, the withdrawal details dialog. Moved down
 * from e2e/deposit-states.e2e.ts, e2e/ux.e2e.ts and e2e/money.e2e.ts.
 */
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** One page of the combined history holding these rows. */
const historyPage = ({ rows, ...totals }: { rows: THistoryRecord[]; total_deposits?: number; total_withdrawals?: number }): DataOut<typeof history.list> => ({
  ...EMPTY_HISTORY,
  ...totals,
  data: rows,
  pagination: { total: rows.length, page: 1, perPage: 10 },
});
const typeOf = (r: { query: URLSearchParams }) => r.query.get('type');

describe('/transaction: a failed read', () => {
  it('a failed history request on /transaction toasts its message once, also after a refetch and on another tab', async () => {
    const u = userEvent.setup();
    await renderApp('/transaction', { user: SIGNED_IN, server: [fail(history.list, 'INTERNAL', 'Internal server error')] });
    // The table shows the message once the one retry is spent (issue 32).
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Internal server error'))).toBe(true), {
      timeout: 3000,
    });
    const deposits = () => requestsTo(history.list).filter((r) => typeOf(r) === 'transaction').length;
    expect(deposits()).toBe(2);
    expect(toastsRaised('error').filter((t) => t.includes('Internal server error'))).toHaveLength(1);
    // The phone comes back to the browser: the history is read again (with its retry) and fails the same way.
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(deposits()).toBe(4), { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 100));
    expect(toastsRaised('error').filter((t) => t.includes('Internal server error'))).toHaveLength(1);
    // … and so does the Withdrawals tab.
    await u.click(screen.getByRole('tab', { name: 'Withdrawals' }));
    await waitFor(() => expect(requestsTo(history.list).filter((r) => typeOf(r) === 'withdrawal').length).toBeGreaterThanOrEqual(2), { timeout: 3000 });
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Internal server error'))).toBe(true), {
      timeout: 3000,
    });
    expect(toastsRaised('error').filter((t) => t.includes('Internal server error'))).toHaveLength(1);
  });

  it('offers Retry when the server cannot be reached, and the retry loads the table', async () => {
    let down = false;
    const u = userEvent.setup();
    await renderApp('/transaction', {
      user: SIGNED_IN,
      server: [
        unreachable(history.list, { while: () => down }),
        answer(history.list, ({ query }) =>
          query.get('type') === 'transaction'
            ? historyPage({
                rows: [{ id: '1', createdAt: '2026-12-01T10:00:00.000Z', amount: 20, amount_usd: 20, status: 'finished', extra: null }],
                total_deposits: 20,
              })
            : EMPTY_HISTORY,
        ),
      ],
    });
    await screen.findByRole('button', { name: 'View' }, { timeout: 3000 });
    down = true;
    await u.click(screen.getByRole('tab', { name: 'Transfers' }));
    const retry = await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 });
    expect(screen.queryByText('No records found')).toBeNull();
    down = false;
    await u.click(retry);
    await screen.findByText('No records found', {}, { timeout: 3000 });
  });
});

describe('/transaction: what a row says', () => {
  it('a cancelled payment (amount_received 0) shows the same amount on the dashboard and in /transaction: $0.00 of $50.00', async () => {
    const at = '2026-12-01T10:00:00.000Z';
    await renderApp('/dashboard', {
      user: SIGNED_IN,
      server: [
        answer(user.info, {
          ...USER_INFO,
          activity: [{ recordType: 'transaction', id: '5', amount: 50, createdAt: at, status: 'expired', received: 0, asked: 50, cancelled_at: at }],
        }),
      ],
    });
    const section = (await screen.findByRole('heading', { name: 'Recent Activities' }, { timeout: 3000 })).closest('section')!;
    await waitFor(() => expect(section.querySelector('li')?.textContent?.replace(/\s+/g, ' ')).toContain('$0.00 of $50.00'));

    await renderApp('/transaction', {
      user: SIGNED_IN,
      server: [
        answer(history.list, ({ query }) =>
          query.get('type') === 'transaction'
            ? historyPage({
                rows: [
                  {
                    id: '5',
                    createdAt: at,
                    amount: 50,
                    amount_usd: 50,
                    status: 'expired',
                    extra: JSON.stringify({ amount_received: 0, expected_amount: 50, cancelled_at: at }),
                  },
                ],
              })
            : EMPTY_HISTORY,
        ),
      ],
    });
    // Issue 32, item 3: what arrived of what was asked, and called what it is (a cell's name starts
    // with its column's label, which a phone shows beside the value).
    await screen.findByRole('cell', { name: /^(Status )?Cancelled$/ }, { timeout: 3000 });
    screen.getByRole('cell', { name: /^(Amount )?\$0\.00 of \$50\.00$/ });
  });

  it('a pending withdrawal: its row and total, and the details dialog opens with the address and closes on the overlay', async () => {
    const u = userEvent.setup();
    await renderApp('/transaction?tab=withdrawal', {
      user: SIGNED_IN,
      server: [
        answer(history.list, ({ query }) =>
          query.get('type') === 'withdrawal'
            ? historyPage({
                rows: [
                  {
                    id: '9',
                    createdAt: '2026-12-01T10:00:00.000Z',
                    amount: -60,
                    amount_usd: -60,
                    status: 'pending',
                    extra: JSON.stringify({ wallet_address: ADDRESS, fee: 3, expected_amount: 57, network: 'BSC' }),
                  },
                ],
                total_withdrawals: 60,
              })
            : { ...EMPTY_HISTORY, total_withdrawals: 60 },
        ),
      ],
    });
    await screen.findByRole('cell', { name: /^(Status )?Pending$/ }, { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('total-withdrawals').textContent).toContain('$60.00'));
    await u.click(screen.getAllByRole('button', { name: 'View' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Transaction Details' });
    within(dialog).getByText('0x52908400...D2E4169EE7');
    await u.click(screen.getByTestId('modal-overlay'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
