// @vitest-environment happy-dom
import { demoPayments, payments, type TCurrencyOption, type TDemoPayment, type TPaymentExtra, type TPaymentStatus } from '@app/core/contracts/payments';
import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, fail, requestsTo } from '../../test/handlers';
import { renderApp, screen, server, SIGNED_IN, toastsRaised } from '../../test/render-app';

/*
 * /demo-deposit at route level (issue 50): what a payment's outcome toasts and shows, moved down
 * from e2e/ux.e2e.ts and e2e/deposit-states.e2e.ts. The fake server plays the sandbox gateway: a
 * payment is created waiting, and its status answers whatever the test has the chain do.
 */
const CURRENCIES: TCurrencyOption[] = [
  {
    name: 'usdtbsc',
    symbol: 'USDT',
    iconUrl: '/icons/usdt.svg',
    chain: { name: 'Binance Smart Chain', shortName: 'BSC', symbol: 'BNB', iconUrl: '/icons/bsc.svg' },
  },
  {
    name: 'usdtmatic',
    symbol: 'USDT',
    iconUrl: '/icons/usdt.svg',
    chain: { name: 'Polygon', shortName: 'Polygon', symbol: 'MATIC', iconUrl: '/icons/polygon.svg' },
  },
  { name: 'usdttrc20', symbol: 'USDT', iconUrl: '/icons/usdt.svg', chain: { name: 'Tron', shortName: 'TRON', symbol: 'TRX', iconUrl: '/icons/tron.svg' } },
];
const ID = 'P-1001';
const CREATED = new Date().toISOString();
/** The payment window closes half an hour from now. */
const CLOSES = new Date(Date.now() + 30 * 60_000).toISOString();

const extraOf = (asked: number, received: number, over: Partial<TPaymentExtra> = {}): string =>
  JSON.stringify({
    amount_received: received,
    expected_amount: asked,
    credited_amount: received,
    pay_currency: 'USDT',
    status_description: null,
    confirmations_received: received > 0 ? 3 : 0,
    last_transaction_hash: received > 0 ? '0xabc' : null,
    last_transaction_time: received > 0 ? CREATED : null,
    cancelled_at: null,
    ...over,
  } satisfies TPaymentExtra);

const TRON_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

const createdPayment = (asked: number, payCurrency = 'usdtbsc'): TDemoPayment => ({
  paymentId: ID,
  status: 'waiting',
  amount: asked,
  payAmount: asked,
  payCurrency,
  payAddress: payCurrency === 'usdttrc20' ? TRON_ADDRESS : '0x52908400098527886E0F7030069857D2E4169EE7',
  credited_amount: 0,
  timedout_at: CLOSES,
  extra: extraOf(asked, 0),
  meta_data: { token: { iconUrl: '/icons/usdt.svg', symbol: 'USDT', name: 'Tether USD' }, chain: { iconUrl: '/icons/bsc.svg', name: 'BSC' } },
});

const statusOf = (asked: number, received: number, status: TPaymentStatus['status']): TPaymentStatus => ({
  payment_id: ID,
  status,
  amount: asked,
  pay_amount: asked,
  pay_currency: 'usdtbsc',
  credited_amount: received,
  timedout_at: CLOSES,
  confirmations: received > 0 ? 3 : 0,
  required_confirmations: null,
  extra: extraOf(asked, received),
});

/** /demo-deposit on the sandbox gateway; `paid()` is what the chain has received so far. */
async function demoDeposit(
  asked: number,
  paid: () => number,
  finalStatus: (received: number) => TPaymentStatus['status'],
  chain: { option: string; currency: string } = { option: 'BSC', currency: 'usdtbsc' },
) {
  const app = await renderApp('/demo-deposit', {
    user: SIGNED_IN,
    server: [
      answer(demoPayments.currencies, CURRENCIES),
      answer(payments.config, { gateway: 'sandbox', sandbox: true }),
      answer(demoPayments.create, ({ body }) => createdPayment(asked, (body as { currency: string }).currency)),
      answer(payments.sandboxPay, () => statusOf(asked, paid(), 'confirming')),
      answer(demoPayments.status, () => statusOf(asked, paid(), paid() === 0 ? 'waiting' : finalStatus(paid()))),
    ],
  });
  const u = userEvent.setup();
  await screen.findByText('No pending payments found', {}, { timeout: 3000 });
  await u.click(screen.getByRole('button', { name: /^Select Chain/ }));
  await u.click(screen.getAllByRole('option').find((o) => o.textContent?.includes(chain.option))!);
  const amount = screen.getByLabelText('Enter Amount');
  await u.clear(amount);
  await u.type(amount, String(asked));
  await u.click(screen.getByRole('button', { name: 'Deposit' }));
  await waitFor(() => expect(toastsRaised()).toContain('Payment created successfully'));
  // The chain chosen is the currency asked for.
  expect(requestsTo(demoPayments.create).map((r) => (r.body as { currency: string }).currency)).toEqual([chain.currency]);
  await screen.findByText('Payment Timer:', { exact: false });
  return { app, u };
}

describe('/demo-deposit: a payment’s outcome', () => {
  it('never toasts a partial payment as confirmed; the box says what is missing and starts a payment for it', async () => {
    let paid = 0;
    const { app, u } = await demoDeposit(
      100,
      () => paid,
      (r) => (r < 100 ? 'partially_paid' : 'finished'),
    );
    await u.type(screen.getByLabelText('Amount to simulate'), '40');
    paid = 40;
    await u.click(screen.getByRole('button', { name: 'Simulate payment' }));
    const partial = 'Payment completed with partial amount! Received 40.00 USDT (Expected: 100.00 USDT).';
    await waitFor(() => expect(toastsRaised()).toContain(partial), { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('partial-missing').textContent).toContain('Missing: 60.00 USDT'));
    // The person stays to pay the rest (a partial payment does not leave the page, issue 32 item 6): the form is prefilled.
    await u.click(screen.getByRole('button', { name: 'Pay the missing amount' }));
    const amount = screen.getByLabelText('Enter Amount') as HTMLInputElement;
    expect(amount.value).toBe('60');
    expect(amount.disabled).toBe(false);
    expect(toastsRaised().filter((t) => /confirmed/i.test(t))).toEqual([]);
    expect(toastsRaised().filter((t) => t === partial)).toHaveLength(1);
    expect(app.path()).toBe('/demo-deposit');
  });

  it('toasts a full payment as confirmed exactly once, then redirects to /transaction', async () => {
    let paid = 0;
    const { app, u } = await demoDeposit(
      20,
      () => paid,
      () => 'finished',
      { option: 'Polygon', currency: 'usdtmatic' },
    );
    // The panel names the network the payment was created on.
    screen.getByText('Use the Polygon (MATIC) network only', { exact: false });
    await u.type(screen.getByLabelText('Amount to simulate'), '20');
    paid = 20;
    await u.click(screen.getByRole('button', { name: 'Simulate payment' }));
    await waitFor(() => expect(toastsRaised('success')).toContain('Payment confirmed! Received 20.00 USDT.'), { timeout: 3000 });
    // The countdown to /transaction is told, and the outcome is not announced again on the way.
    await waitFor(() => expect(toastsRaised('info')).toContain('Redirecting to transaction page in 5 seconds...'));
    await waitFor(() => expect(app.path()).toBe('/transaction'), { timeout: 8000 });
    expect(toastsRaised().filter((t) => t.includes('Payment confirmed!'))).toHaveLength(1);
    expect(toastsRaised().filter((t) => t.includes('Failed to refresh payment status'))).toEqual([]);
  }, 15_000);

  it('a partially paid payment reached through Check Status shows no Cancel and no countdown', async () => {
    let paid = 0;
    const { u } = await demoDeposit(
      50,
      () => paid,
      () => 'partially_paid',
    );
    // 20 of 50 arrives from outside the page (a wallet app).
    paid = 20;
    await u.click(screen.getByRole('button', { name: 'Check Status' }));
    await screen.findByTestId('partial-box', {}, { timeout: 3000 });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByText('Payment Timer:', { exact: false })).toBeNull();
    await screen.findByText('No pending payments found');
  });

  it('a partially paid payment: the refused cancel closes the dialog and refreshes; then no Cancel, no running timer, not pending', async () => {
    let paid = 0;
    const { u } = await demoDeposit(
      100,
      () => paid,
      () => 'partially_paid',
    );
    // 60 of 100 arrives from outside the page; the page has not looked yet, so Cancel is still there.
    paid = 60;
    server.use(fail(demoPayments.cancel, 'BAD_REQUEST', 'Payment can no longer be cancelled'));
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Payment' });
    await u.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Payment' }));
    await waitFor(() => expect(toastsRaised('error')).toContain('Payment can no longer be cancelled'));
    // The refusal closes the dialog and refreshes the payment.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByTestId('partial-box', {}, { timeout: 3000 });
    expect(requestsTo(demoPayments.cancel)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByText('Payment Timer:', { exact: false })).toBeNull();
    expect(screen.queryByText('Payment window expired')).toBeNull();
    await screen.findByText('No pending payments found');
    expect(screen.queryByText(`Payment #${ID}`, { exact: false })).toBeNull();

    // The same after a reload, even if the list still carries it: the closed payment is neither reopened nor listed as pending.
    const closed = statusOf(100, 60, 'partially_paid');
    await renderApp('/demo-deposit', {
      user: SIGNED_IN,
      server: [
        answer(demoPayments.currencies, CURRENCIES),
        answer(payments.config, { gateway: 'sandbox', sandbox: true }),
        answer(demoPayments.pending, [
          {
            id: '1',
            payment_id: ID,
            status: closed.status,
            createdAt: CREATED,
            amount: 100,
            pay_amount: 100,
            pay_currency: 'usdtbsc',
            pay_address: '0x52908400098527886E0F7030069857D2E4169EE7',
            credited_amount: 60,
            timedout_at: CLOSES,
            confirmations: 3,
            required_confirmations: null,
            extra: closed.extra,
          },
        ]),
      ],
    });
    await screen.findByRole('heading', { name: 'Pending Payments' }, { timeout: 3000 });
    await screen.findByText('No pending payments found');
    expect(screen.queryByText(`Payment #${ID}`, { exact: false })).toBeNull();
    expect(screen.queryByTestId('partial-box')).toBeNull();
  });

  it('keeps or cancels a waiting payment through the modal', async () => {
    const { u } = await demoDeposit(
      50,
      () => 0,
      () => 'waiting',
      { option: 'TRON', currency: 'usdttrc20' },
    );
    expect(screen.getByTestId('pay-address').textContent?.replace(/ /g, '')).toBe(TRON_ADDRESS);
    server.use(answer(demoPayments.cancel, null as never, { message: 'Payment cancelled successfully' }));
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel Payment' });
    within(dialog).getByText('Are you sure you want to cancel this payment? This action cannot be undone.');
    await u.click(within(dialog).getByRole('button', { name: 'Keep Payment' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsTo(demoPayments.cancel)).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Cancel' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel Payment' });
    await u.click(within(dialog).getByRole('button', { name: 'Yes, Cancel Payment' }));
    await waitFor(() => expect(toastsRaised('success')).toContain('Payment cancelled successfully'));
    expect(requestsTo(demoPayments.cancel).map((r) => r.body)).toEqual([{ payment_id: ID }]);
    await waitFor(() => expect((screen.getByLabelText('Enter Amount') as HTMLInputElement).disabled).toBe(false));
  });
});
