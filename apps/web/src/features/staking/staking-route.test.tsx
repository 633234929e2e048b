// @vitest-environment happy-dom
import { staking } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { fireEvent, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, requestsTo, WALLET } from '../../test/handlers';
import { renderApp, screen, SIGNED_IN, toastTexts } from '../../test/render-app';

/*
 * /staking at route level (issue 50): the field rule, the review before the call and the single
 * flight of its Confirm, moved down from e2e/ux.e2e.ts and e2e/single-flight.e2e.ts. The wallet
 * answers $200 on the deposit balance; the stake call is held until the test lets it go.
 */
const WALLET_200 = { ...WALLET, deposit_balance: 200 };

async function stakingWith(amount: string, hold?: Promise<unknown>) {
  const app = await renderApp('/staking', {
    user: SIGNED_IN,
    server: [answer(user.wallet, WALLET_200), answer(staking.create, null as never, { hold })],
  });
  const field = await screen.findByLabelText('Amount');
  await waitFor(() => expect((field as HTMLInputElement).disabled).toBe(false));
  await screen.findByText('Available: $200.00');
  const u = userEvent.setup();
  await u.type(field, amount);
  return { app, u, field: field as HTMLInputElement };
}

const stakes = () => requestsTo(staking.create);
const staked = () => toastTexts().filter((t) => t.includes('Staking successful!'));

describe('/staking: the amount rule, the review and one stake per confirm', () => {
  it('tells a broken rule at the field, to screen readers too, and sends nothing', async () => {
    const { u, field } = await stakingWith('55');
    await u.click(screen.getByRole('button', { name: 'Stake' }));
    await screen.findByText('Amount must be a multiple of 10');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Amount must be a multiple of 10');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stakes()).toHaveLength(0);
  });

  it('asks for a review with the amount, the cap and the lock before the call, and calls once on Confirm', async () => {
    const { u } = await stakingWith('90');
    await u.click(screen.getByRole('button', { name: 'Stake' }));
    const review = await screen.findByRole('dialog', { name: 'Review your stake' });
    within(review).getAllByText('$90.00');
    within(review).getByText('200% = $180.00');
    within(review).getByText('The amount is locked in the stake and is not returned separately: the cap includes it.');
    expect(stakes()).toHaveLength(0);
    await u.click(within(review).getByRole('button', { name: 'Confirm stake' }));
    await waitFor(() => expect(staked()).toHaveLength(1));
    expect(stakes().map((r) => r.body)).toEqual([{ amount_usd: 90 }]);
  });

  it('double-clicking "Confirm stake" sends one POST /api/stake/create, shows the busy dialog and toasts once', async () => {
    let release: (v?: unknown) => void = () => undefined;
    const held = new Promise((r) => (release = r));
    const { u } = await stakingWith('50', held);
    await u.click(screen.getByRole('button', { name: 'Stake' }));
    const review = await screen.findByRole('dialog', { name: 'Review your stake' });
    await u.dblClick(within(review).getByRole('button', { name: 'Confirm stake' }));
    const busy = await within(review).findByRole('button', { name: 'Processing...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect((within(review).getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
    release();
    await waitFor(() => expect(staked()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(stakes()).toHaveLength(1);
    expect(staked()).toHaveLength(1);
  });

  it('two clicks on "Confirm stake" with no await between them send one request', async () => {
    const { u } = await stakingWith('50');
    await u.click(screen.getByRole('button', { name: 'Stake' }));
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm stake' });
    confirm.click();
    confirm.click();
    await waitFor(() => expect(staked()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(stakes()).toHaveLength(1);
  });

  it('Enter twice in the stake form and twice on "Confirm stake" stakes once', async () => {
    const { field } = await stakingWith('50');
    // Enter in the field submits the form: the first opens the review, the second may not start a stake.
    fireEvent.submit(field.form!);
    fireEvent.submit(field.form!);
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm stake' });
    expect(stakes()).toHaveLength(0);
    confirm.focus();
    const u = userEvent.setup();
    await Promise.all([u.keyboard('{Enter}'), u.keyboard('{Enter}')]);
    await waitFor(() => expect(staked()).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 200));
    expect(stakes()).toHaveLength(1);
  });
});
