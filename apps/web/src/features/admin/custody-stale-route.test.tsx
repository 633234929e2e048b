// @vitest-environment happy-dom
import { admin } from '@app/core/contracts/admin';
import type { DataOut } from '@app/core/contracts/define';
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, requestsTo } from '../../test/handlers';
import { renderApp, screen } from '../../test/render-app';

/*
 * /admin/custody when a node stops answering, and at thousands of addresses (issue 49): the network
 * says Stale with the server's reason and the head's age (its heights are old news), each balance
 * shows how old its stored read is, and the addresses holding the token come a page at a time.
 */
type View = DataOut<typeof admin.custody>;
const NOW = new Date().toISOString();
const line = (i: number): View['networks'][number]['sweep'][number] => ({
  address: `0x${i.toString(16).padStart(40, '0')}`,
  user_id: String(i),
  index: i,
  path: `m/44'/60'/0'/0/${i}`,
  balance: 7,
  read_at: NOW,
  age_s: 95,
});
const network = (page: number): View['networks'][number] => ({
  network: 'bsc',
  state: 'stale',
  reason: 'no answer from the node for 75 s: http://node did not answer within 10000 ms',
  head: 100,
  head_age_s: 75,
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
  deposits: { seen: 0, credited: 60, below_minimum: 0, held: 0, orphaned: 0 },
  credited_total: 420,
  reconciliation: {
    at_block: 90,
    read_at: NOW,
    age_s: 95,
    addresses: 10_000,
    holding: 60,
    on_chain: 420,
    expected: 420,
    ledger_credited: 420,
    difference: 0,
    flagged: false,
  },
  sweep: Array.from({ length: page === 1 ? 50 : 10 }, (_, i) => line((page - 1) * 50 + i)),
  sweep_pagination: { total: 60, page, perPage: 50 },
});

describe('/admin/custody: a stale node and a paged address list', () => {
  it('says Stale with the reason, shows the ages, and asks the server for the next page of addresses', async () => {
    const u = userEvent.setup();
    await renderApp('/admin/custody', {
      user: { token: 'admin-token', admin: true },
      server: [answer(admin.custody, ({ query }) => ({ gateway: 'chain', networks: [network(Number(query.get('page') ?? 1))], not_credited: [] }))],
    });
    const card = await screen.findByTestId('custody-bsc');
    expect(within(card).getByText('Stale')).toBeTruthy();
    expect((await screen.findByTestId('stale-bsc')).textContent).toMatch(/did not answer within 10000 ms/);
    expect(screen.getByTestId('head-age-bsc').textContent).toMatch(/Head first seen 75 s ago/);
    expect(screen.getByTestId('balances-age-bsc').textContent).toMatch(/10,000 addresses read 95 s ago/);
    expect(within(card).getByText(/Addresses holding USDT \(60\)/)).toBeTruthy();
    expect(within(card).getByText('0x0000000000000000000000000000000000000031')).toBeTruthy();

    await u.click(within(card).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(screen.getByTestId('custody-bsc')).getByText('0x0000000000000000000000000000000000000032')).toBeTruthy());
    expect(requestsTo(admin.custody).map((r) => r.query.get('page'))).toContain('2');
  });
});
