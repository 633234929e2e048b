// @vitest-environment happy-dom
import { payments, type TPaymentStatus, type TPendingPayment } from '@app/core/contracts/payments';
import { waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, requestsTo } from '../../test/handlers';
import { renderApp, screen, SIGNED_IN } from '../../test/render-app';

/*
 * /deposit on the chain gateway (issue 49): the pending list agrees with the payment panel. The
 * panel reads the payment's status every few seconds; when it sees the deposit credited, the list
 * reads the payments again and says "Credited" too, never "Waiting" beside a credited panel.
 */
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const CREATED = new Date().toISOString();
const CLOSES = new Date(Date.now() + 5 * 60_000).toISOString();
const extra = (received: number, confirmations: number) =>
  JSON.stringify({
    amount_received: received,
    expected_amount: 25,
    credited_amount: received,
    pay_currency: 'USDT',
    status_description: null,
    confirmations_received: confirmations,
    last_transaction_hash: received ? '0xabc' : null,
    last_transaction_time: null,
    cancelled_at: null,
    network_code: 'bsc',
    required_confirmations: 15,
  });
const card = (status: TPendingPayment['status'], received: number, confirmations: number): TPendingPayment => ({
  id: '1',
  payment_id: '9000000001',
  status,
  createdAt: CREATED,
  amount: 25,
  pay_amount: 25,
  pay_currency: 'usdtbsc',
  pay_address: ADDRESS,
  credited_amount: received,
  timedout_at: CLOSES,
  confirmations,
  required_confirmations: 15,
  extra: extra(received, confirmations),
});
const statusOf = (c: TPendingPayment): TPaymentStatus => ({
  payment_id: c.payment_id,
  status: c.status,
  amount: c.amount,
  pay_amount: c.pay_amount,
  pay_currency: c.pay_currency,
  credited_amount: c.credited_amount ?? 0,
  timedout_at: c.timedout_at,
  confirmations: c.confirmations,
  required_confirmations: c.required_confirmations,
  extra: c.extra,
});

describe('/deposit on the chain gateway: the pending list and the panel', () => {
  it('shows "Credited" in the list once the panel sees the deposit credited, not "Waiting"', async () => {
    // The list was read while the payment waited; by the time the panel asks, 10 of 25 are credited.
    const waiting = card('waiting', 0, 0);
    const credited = card('partially_paid', 10, 16);
    await renderApp('/deposit', {
      user: SIGNED_IN,
      server: [
        answer(payments.config, { gateway: 'chain', sandbox: false }),
        answer(payments.addresses, { usdtbsc: ADDRESS, usdtmatic: ADDRESS }),
        answer(payments.pending, ({ n }) => [n === 1 ? waiting : credited]),
        answer(payments.status, statusOf(credited)),
      ],
    });
    await waitFor(() => expect(screen.getByTestId('confirmations').textContent).toBe('Credited'), { timeout: 4000 });
    await waitFor(() => expect(requestsTo(payments.pending).length).toBeGreaterThan(1));
    const row = (await screen.findByTestId('pending-confirmations')).closest('li')!;
    await waitFor(() => expect(within(row).getByTestId('pending-confirmations').textContent).toBe('Credited'));
    expect(row.textContent).not.toMatch(/Waiting/);
  });

  it('shows the live count of a confirming deposit in the list, from the contract’s own fields', async () => {
    const confirming = card('confirming', 0, 4);
    await renderApp('/deposit', {
      user: SIGNED_IN,
      server: [
        answer(payments.config, { gateway: 'chain', sandbox: false }),
        answer(payments.addresses, { usdtbsc: ADDRESS, usdtmatic: ADDRESS }),
        answer(payments.pending, [confirming]),
        answer(payments.status, statusOf(confirming)),
      ],
    });
    const row = (await screen.findByTestId('pending-confirmations', undefined, { timeout: 4000 })).closest('li')!;
    expect(within(row).getByTestId('pending-confirmations').textContent).toBe('Confirmations: 4 / 15');
    await waitFor(() => expect(screen.getByTestId('confirmations').textContent).toBe('Confirmations: 4 / 15'));
  });
});
