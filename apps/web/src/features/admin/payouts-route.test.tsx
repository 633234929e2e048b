// @vitest-environment happy-dom
import { admin } from '@app/core/contracts/admin';
import type { DataOut } from '@app/core/contracts/define';
import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer } from '../../test/handlers';
import { renderApp, screen } from '../../test/render-app';

/*
 * /admin/withdrawals with PAYOUTS=signer (issue 48): the signer panel lists the sweeps the server
 * recorded, each with its explorer links, or says there are none; a held payout shows its reason.
 */
type View = DataOut<typeof admin.payouts>;
type Row = DataOut<typeof admin.withdrawals>['data'][number];
const NOW = new Date().toISOString();
const TOKEN_TX = `0x${'a1'.repeat(32)}`;
const GAS_TX = `0x${'b2'.repeat(32)}`;
const VIEW: View = {
  mode: 'signer',
  queue: { approved: 1, held: 1, sent: 0 },
  reconciliation: [],
  signer: { last_contact_at: NOW, limits: [{ network: 'bsc', used: 9.5, limit: 10_000, max_payout: 20 }], hot: [] },
  sweeps: {
    total: 27,
    shown: 20,
    items: [
      {
        id: '27',
        network: 'bsc',
        address: `0x${'c3'.repeat(20)}`,
        amount: 1000,
        destination: 'hot',
        gas_tx: GAS_TX,
        gas_explorer_url: `https://bscscan.com/tx/${GAS_TX}`,
        token_tx: TOKEN_TX,
        token_explorer_url: `https://bscscan.com/tx/${TOKEN_TX}`,
        block: 123,
        recorded_at: NOW,
      },
      {
        id: '26',
        network: 'polygon',
        address: `0x${'d4'.repeat(20)}`,
        amount: 12.5,
        destination: 'cold',
        gas_tx: null,
        gas_explorer_url: null,
        token_tx: `0x${'e5'.repeat(32)}`,
        token_explorer_url: `https://polygonscan.com/tx/0x${'e5'.repeat(32)}`,
        block: 99,
        recorded_at: NOW,
      },
    ],
  },
};
const HELD: Row = {
  id: '5',
  user_id: '7',
  amount: 40,
  fee: 2,
  receive_amount: 38,
  network: 'BSC',
  wallet_address: `0x${'f6'.repeat(20)}`,
  status: 'approved',
  tx_hash: null,
  reject_reason: null,
  payout_nonce: null,
  payout_note: 'Held by the signer: 38 USDT is above the per-payout limit of 20 USDT',
  can_approve: false,
  createdAt: NOW,
  processedAt: null,
  user: { id: '7', username: 'alice', email: 'alice@example.test' },
};
const withdrawals = (rows: Row[]) => answer(admin.withdrawals, { data: rows, pagination: { total: rows.length, page: 1, perPage: 20 } });

describe('/admin/withdrawals: the signer panel', () => {
  it('lists the latest sweeps with the total, where each went, and the gas and token transactions linked to the explorer', async () => {
    await renderApp('/admin/withdrawals', { user: { token: 'admin-token', admin: true }, server: [answer(admin.payouts, VIEW), withdrawals([HELD])] });
    const list = await screen.findByRole('region', { name: 'Sweeps' });
    expect(within(list).getByRole('heading').textContent).toBe('Sweeps (latest 2 of 27)');
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toMatch(/BSC \$1,000\.00 → hot wallet/);
    expect(first!.textContent).toMatch(/block 123/);
    expect(within(first!).getByRole('link', { name: /^gas / }).getAttribute('href')).toBe(`https://bscscan.com/tx/${GAS_TX}`);
    expect(
      within(first!)
        .getByRole('link', { name: /^token / })
        .getAttribute('href'),
    ).toBe(`https://bscscan.com/tx/${TOKEN_TX}`);
    expect(second!.textContent).toMatch(/POLYGON \$12\.50 → cold wallet/);
    // No gas top-up: one link only.
    expect(within(second!).getAllByRole('link')).toHaveLength(1);
    // The held payout's reason under its row's actions.
    await screen.findByText('Held by the signer: 38 USDT is above the per-payout limit of 20 USDT');
    expect(screen.getByText(/1 approved \(1 held\)/)).toBeTruthy();
  });

  it('says when nothing was swept yet', async () => {
    await renderApp('/admin/withdrawals', {
      user: { token: 'admin-token', admin: true },
      server: [answer(admin.payouts, { ...VIEW, sweeps: { total: 0, shown: 20, items: [] } }), withdrawals([])],
    });
    const list = await screen.findByRole('region', { name: 'Sweeps' });
    expect(within(list).getByText(/^No sweeps yet/)).toBeTruthy();
    expect(within(list).queryAllByRole('listitem')).toHaveLength(0);
  });
});
