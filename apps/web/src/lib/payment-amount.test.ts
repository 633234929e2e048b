import { describe, expect, it } from 'vitest';
import { paymentAmountText, underReview } from './payment-status';

const usd = { money: (n: number) => `$${n.toFixed(2)}` };

/**
 * Issue 47: a deposit shows what was credited, never what arrived (or was asked) as if it were
 * credited. An overpayment is credited in full; money the gateway reported against another order or
 * currency is held for review and shown as received and under review.
 */
describe('the amount a finished deposit shows', () => {
  it('is the credited amount: an overpayment in full', () => {
    expect(paymentAmountText('finished', { received: 70, asked: 50, credited: 70 }, usd)).toBe('$70.00');
    expect(underReview('finished', { received: 70, credited: 70 })).toBe(false);
  });

  it('says "under review" for money that arrived and is not credited, never shows it as credited', () => {
    expect(paymentAmountText('finished', { received: 70, asked: 50, credited: 0 }, usd)).toBe('$70.00 received, under review');
    expect(underReview('finished', { received: 70, credited: 0 })).toBe(true);
  });

  it('keeps the other rules: what to send while waiting, what arrived of what was asked otherwise', () => {
    expect(paymentAmountText('waiting', { received: 0, asked: 50, credited: 0 }, usd)).toBe('$50.00');
    expect(paymentAmountText('partially_paid', { received: 20, asked: 50, credited: 20 }, usd)).toBe('$20.00 of $50.00');
    expect(underReview('partially_paid', { received: 20, credited: 0 })).toBe(false);
  });

  it('an older server that sends no credited amount shows what arrived, as before', () => {
    expect(paymentAmountText('finished', { received: 50, asked: 50 }, usd)).toBe('$50.00');
    expect(underReview('finished', { received: 50, credited: null })).toBe(false);
  });
});
