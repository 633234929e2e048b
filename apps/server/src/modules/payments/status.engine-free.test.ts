import { describe, expect, it } from 'vitest';
import { gatewayAmount } from '@app/core';
import { canMove, PAYMENT_STATUSES, type PaymentStatus } from './status';

describe('payment status state machine', () => {
  /** Of the moves written "from→to" (typed, so a misspelt status does not compile), the ones canMove allows. */
  const allowedOf = (moves: `${PaymentStatus}→${PaymentStatus}`[]) => moves.filter((m) => canMove(...(m.split('→') as [PaymentStatus, PaymentStatus])));

  it('moves forward through waiting < confirming < confirmed < sending < final', () => {
    const forward: Parameters<typeof allowedOf>[0] = [
      'waiting→confirming',
      'confirming→confirmed',
      'confirmed→sending',
      'sending→finished',
      'waiting→finished',
      'waiting→expired',
      'confirming→partially_paid',
    ];
    expect(allowedOf(forward)).toEqual(forward);
  });

  it('never moves backwards', () => {
    expect(allowedOf(['confirmed→confirming', 'sending→waiting', 'finished→confirming', 'finished→partially_paid', 'expired→waiting'])).toEqual([]);
  });

  it('leaves a final state only for partially_paid → finished and expired → a paid status', () => {
    const finals: PaymentStatus[] = ['partially_paid', 'finished', 'failed', 'refunded', 'expired'];
    const allowed = finals.flatMap((from) => PAYMENT_STATUSES.filter((to) => to !== from && canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed.sort()).toEqual(
      ['expired→confirmed', 'expired→confirming', 'expired→finished', 'expired→partially_paid', 'expired→sending', 'partially_paid→finished'].sort(),
    );
  });

  it('accepts the same status again (its amounts may have grown)', () => {
    for (const s of PAYMENT_STATUSES) expect(canMove(s, s)).toBe(true);
  });
});

describe('gateway amounts', () => {
  it('reads numbers and decimal strings through their text, never float maths', () => {
    expect(gatewayAmount(10.1)).toBe(10_100_000n);
    expect(gatewayAmount('10.1')).toBe(10_100_000n);
    expect(gatewayAmount(0.1 + 0.2)).toBe(300_000n); // 0.30000000000000004 rounds down to 0.3
    expect(gatewayAmount(1e-7)).toBe(0n);
    expect(gatewayAmount(1e21)).toBe(10n ** 27n);
    expect(gatewayAmount('  5 ')).toBe(5_000_000n);
  });

  it('rounds received amounts down and amounts to pay up', () => {
    expect(gatewayAmount('1.2345678', 'down')).toBe(1_234_567n);
    expect(gatewayAmount('1.2345671', 'up')).toBe(1_234_568n);
    expect(gatewayAmount('1.2345670', 'up')).toBe(1_234_567n);
  });

  it('refuses what is not a non-negative decimal', () => {
    for (const v of [null, undefined, '', 'abc', '-1', -1, Number.NaN, Infinity, '1e5', {}, true]) expect(gatewayAmount(v)).toBeNull();
  });
});
