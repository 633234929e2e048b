// @vitest-environment happy-dom
import { admin } from '@app/core/contracts/admin';
import type { DataOut } from '@app/core/contracts/define';
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, requestsTo } from '../../test/handlers';
import { renderApp, screen, toastsRaised } from '../../test/render-app';

/*
 * /admin/custody's list of what waits for an admin (issue 49): each transfer with its exact amount
 * and status, Credit only where crediting can work, Dismiss for dust and held transfers.
 */
type View = DataOut<typeof admin.custody>;
const NOW = new Date().toISOString();
const NETWORK: View['networks'][number] = {
  network: 'bsc',
  state: 'ok',
  reason: null,
  head: 100,
  head_age_s: 1,
  answered_at: NOW,
  scanned_to: 100,
  final_height: 90,
  finalized_tag: null,
  lag: 0,
  head_at: NOW,
  halted: false,
  halted_reason: null,
  halted_at: null,
  confirmations: 15,
  deposits: { seen: 0, credited: 0, below_minimum: 2, held: 1, orphaned: 0 },
  credited_total: 0,
  reconciliation: {
    at_block: 90,
    read_at: NOW,
    age_s: 1,
    addresses: 1,
    holding: 0,
    on_chain: 0,
    expected: 0,
    ledger_credited: 0,
    difference: 0,
    flagged: false,
  },
  sweep: [],
  sweep_pagination: { total: 0, page: 1, perPage: 50 },
};
const waiting = (id: string, over: Partial<View['not_credited'][number]>): View['not_credited'][number] => ({
  id,
  network: 'bsc',
  user_id: '7',
  username: 'alice',
  amount: 0,
  tx_hash: `0x${id.repeat(64).slice(0, 64)}`,
  seen_at: NOW,
  note: null,
  status: 'below_minimum',
  token_amount: '0',
  actions: ['dismiss'],
  ...over,
});
const VIEW: View = {
  gateway: 'chain',
  networks: [NETWORK],
  not_credited: [
    waiting('1', { token_amount: '0.000000000000000007' }),
    waiting('2', { status: 'held', token_amount: '28948022309329048855892746252171976963317496166410141009864.396' }),
    waiting('3', { amount: 0.5, token_amount: '0.5', actions: ['credit', 'dismiss'] }),
  ],
};

describe('/admin/custody: transfers that wait for an admin', () => {
  it('shows dust and held transfers with their exact amount and a Dismiss button, Credit only where it can work', async () => {
    const u = userEvent.setup();
    let dismissed = false;
    await renderApp('/admin/custody', {
      user: { token: 'admin-token', admin: true },
      server: [
        answer(admin.custody, () => (dismissed ? { ...VIEW, not_credited: VIEW.not_credited.filter((w) => w.id !== '1') } : VIEW)),
        answer(
          admin.custodyDismiss,
          () => {
            dismissed = true;
            return undefined;
          },
          { message: 'Transfer dismissed' },
        ),
      ],
    });
    const item = async (text: RegExp) => (await screen.findByText(text)).closest('li')!;
    const dust = await item(/0\.000000000000000007/);
    expect(dust.textContent).toMatch(/below the minimum/);
    expect(within(dust).queryByRole('button', { name: 'Credit' })).toBeNull();
    const held = await item(/28948022309329048855892746252171976963317496166410141009864\.396/);
    expect(held.textContent).toMatch(/held \(above the automatic credit bound\)/);
    expect(within(held).queryByRole('button', { name: 'Credit' })).toBeNull();
    expect(within(held).getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    const small = (await screen.findByText('0.5')).closest('li')!;
    expect(within(small).getByRole('button', { name: 'Credit' })).toBeTruthy();

    await u.click(within(dust).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(requestsTo(admin.custodyDismiss).map((r) => r.path)).toEqual(['/api/admin/custody/observations/1/dismiss']));
    await waitFor(() => expect(toastsRaised('success')).toContain('Transfer dismissed'));
    await waitFor(() => expect(screen.queryByText(/0\.000000000000000007/)).toBeNull());
  });
});
