// @vitest-environment happy-dom
import { user } from '@app/core/contracts/user';
import type { DataOut } from '@app/core/contracts/define';
import { describe, expect, it } from 'vitest';
import { answer, envelope, takeDrifts, WALLET } from './handlers';
import { assertFakesHeld, renderApp, screen, SIGNED_IN } from './render-app';

/*
 * The fakes are held to the contracts (issue 50): when a contract's answer changes shape and a
 * test's handler is not updated, the test fails, instead of passing against an answer the server
 * can no longer give.
 */
const { balance: _dropped, ...withoutBalance } = WALLET;
/** The wallet with its required `balance` missing, as a handler written before a rename would send it. */
const DRIFTED = withoutBalance as unknown as DataOut<typeof user.wallet>;

describe('a handler whose answer drifted from its contract', () => {
  it('envelope() throws, naming the endpoint and the field, for a missing field or a wrong type', () => {
    expect(() => envelope(user.wallet, DRIFTED)).toThrow(/GET \/api\/user\/wallet.*balance/);
    expect(() => envelope(user.wallet, { ...WALLET, total_directs: '3' } as unknown as DataOut<typeof user.wallet>)).toThrow(/total_directs/);
    expect(() => envelope(user.wallet, WALLET)).not.toThrow();
  });

  it('a route rendered against it records the drift (which fails the test after it) and the page gets no data', async () => {
    await renderApp('/wallet', { user: SIGNED_IN, server: [answer(user.wallet, DRIFTED)] });
    // The drifted answer never reaches the page: it is refused as a server fault and the page says it could not read it.
    await screen.findByText('Failed to fetch wallet information', {}, { timeout: 3000 });
    expect(screen.queryByTestId('available-balance')).toBeNull();
    // What render-app.tsx runs after each test fails it, naming the endpoint and the field.
    expect(() => assertFakesHeld()).toThrow(/contract drift: the fake answer of GET \/api\/user\/wallet does not match its contract: data\.balance/);
    // (The check emptied the record, so this test, which wanted the drift, ends green.)
    expect(takeDrifts()).toEqual([]);
  });

  it('an answer that matches its contract renders', async () => {
    await renderApp('/wallet', { user: SIGNED_IN, server: [answer(user.wallet, { ...WALLET, balance: 42 })] });
    await screen.findByTestId('available-balance', {}, { timeout: 3000 });
    expect(screen.getByTestId('available-balance').textContent).toContain('42.00');
    expect(() => assertFakesHeld()).not.toThrow();
  });
});
