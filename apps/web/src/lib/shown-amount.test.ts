import { describe, expect, it } from 'vitest';
import { shownAmount } from './shown-amount';

describe('shownAmount (spec section 3: amount_received, else amount_usd, else amount, absolute)', () => {
  it('prefers amount_received when it is there', () => {
    expect(shownAmount({ amount_received: 60, amount_usd: 100, amount: 60 })).toBe(60);
  });

  it('treats an amount_received of 0 or an empty one as absent', () => {
    expect(shownAmount({ amount_received: 0, amount_usd: 50, amount: 50 })).toBe(50);
    expect(shownAmount({ amount_received: '', amount_usd: 50, amount: 50 })).toBe(50);
    expect(shownAmount({ amount_received: null, amount_usd: 50 })).toBe(50);
    expect(shownAmount({ amount_received: 'n/a', amount_usd: 50 })).toBe(50);
  });

  it('falls back to amount when amount_usd is absent or 0 (a dashboard deposit activity)', () => {
    expect(shownAmount({ amount: 50 })).toBe(50);
    expect(shownAmount({ amount_usd: 0, amount: 25 })).toBe(25);
  });

  it('shows the absolute value, and 0 when nothing is there', () => {
    expect(shownAmount({ amount_usd: -40 })).toBe(40);
    expect(shownAmount({ amount_received: '-12.5' })).toBe(12.5);
    expect(shownAmount({})).toBe(0);
    expect(shownAmount({ amount_received: 0, amount_usd: 0, amount: 0 })).toBe(0);
  });
});
