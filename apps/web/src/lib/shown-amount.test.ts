import { describe, expect, it } from 'vitest';
import type { THistoryRecord } from '@app/core/contracts';
import { shownAmount as recordAmount } from './history-record';
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

describe('the history record amount on /transaction (history-format)', () => {
  const record = (extra: Record<string, unknown> | null, amount_usd: number, amount: number): THistoryRecord => ({
    id: '1',
    createdAt: '2026-11-20T10:00:00.000Z',
    amount,
    amount_usd,
    status: 'expired',
    extra: extra === null ? null : JSON.stringify(extra),
  });

  it('shows the asked amount for a payment cancelled with amount_received 0, as the dashboard does', () => {
    expect(recordAmount(record({ amount_received: 0, expected_amount: 50 }, 50, 50))).toBe(50);
  });

  it('shows amount_received when something arrived, and reads unparsable extra as empty', () => {
    expect(recordAmount(record({ amount_received: 60 }, 100, 60))).toBe(60);
    expect(recordAmount({ ...record(null, 30, 30), extra: '{not json' })).toBe(30);
  });
});
