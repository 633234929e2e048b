import { user } from '@app/core/contracts/user';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { keyOf } from '../../lib/query-keys';
import WithdrawalPage from './pages/withdrawal-page';

/*
 * Issue 47: the withdrawal page showed "Available: 0.00 USDT" with the form open when the wallet
 * read failed. Rendered as the first paint of each case (no effects run, the browser counts as online).
 */
const WALLET = {
  user_id: 7,
  balance: 560,
  deposit_balance: 0,
  total_staked: 0,
  total_income: 560,
  total_withdraw: 0,
  total_directs: 0,
  total_direct_business: 0,
  total_network: 0,
  team_business: { users: 0, amount: 0 },
};
const SETTINGS = { roi_income_percentage: 0.5, direct_referral_percentage: 5, stake_cap_percentage: 200, withdrawal_fee_percentage: 5 };

function render(seed: (client: QueryClient) => void): string {
  // An errored read stays errored on this first paint (in the browser it is asked again on mount).
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, retryOnMount: false } } });
  client.setQueryData(keyOf(user.settings), SETTINGS);
  seed(client);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/withdrawal']}>
        <WithdrawalPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}
const walletQuery = (client: QueryClient) => client.getQueryCache().build(client, { queryKey: keyOf(user.wallet) });

describe('the withdrawal page and its balance (issue 47)', () => {
  it('a failed wallet read: the error with Retry, no 0.00 and no form', () => {
    const html = render((c) =>
      walletQuery(c).setState({ status: 'error', error: new ApiError('', 500), errorUpdateCount: 1, errorUpdatedAt: Date.now(), fetchStatus: 'idle' }),
    );
    expect(html).toContain('Failed to fetch wallet information');
    expect(html).toContain('Retry');
    expect(html).toContain('data-testid="load-error"');
    expect(html).not.toContain('0.00');
    expect(html).not.toContain('wd-quantity');
    expect(html).not.toContain('<form');
  });

  it('the server’s message is shown when it gave one', () => {
    const html = render((c) =>
      walletQuery(c).setState({
        status: 'error',
        error: new ApiError('Internal error', 500),
        errorUpdateCount: 1,
        errorUpdatedAt: Date.now(),
        fetchStatus: 'idle',
      }),
    );
    expect(html).toContain('Internal error');
    expect(html).not.toContain('<form');
  });

  it('a failed read of the rates: no guessed fee, no form', () => {
    const html = render((c) => {
      c.setQueryData(keyOf(user.wallet), WALLET);
      c.getQueryCache()
        .find({ queryKey: keyOf(user.settings) })!
        .setState({ data: undefined, status: 'error', error: new ApiError('', 500), errorUpdateCount: 1, fetchStatus: 'idle' });
    });
    expect(html).toContain('Failed to fetch settings');
    expect(html).not.toContain('<form');
  });

  it('a fresh answer: the balance and an open form', () => {
    const html = render((c) => c.setQueryData(keyOf(user.wallet), WALLET));
    expect(html).toContain('Available: 560.00 USDT');
    expect(html).not.toContain('(as of');
    expect(html).toMatch(/<fieldset class="[^"]*" data-testid="withdraw-form">/);
    expect(html).toContain('wd-quantity');
  });

  it('the copy kept on this device: the balance with its time, the form shut', () => {
    const at = new Date(2026, 11, 5, 7, 5).getTime();
    const html = render((c) => walletQuery(c).setState({ data: WALLET, dataUpdatedAt: at, status: 'success' }));
    expect(html).toContain('Available: 560.00 USDT (as of Dec 5, 7:05 AM)');
    expect(html).toMatch(/<fieldset disabled="" class="[^"]*" data-testid="withdraw-form">/);
    expect(html).toContain('data-testid="stale-form-note"');
  });
});
