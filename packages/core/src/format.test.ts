import { describe, expect, it } from 'vitest';
import {
  abbreviateAmount,
  formatAmount,
  formatCountdown,
  formatDateIso,
  formatDateLong,
  formatDateTime,
  formatClockTime,
  formatDateTimeShort,
  formatDayClockTime,
  formatDayShort,
  passwordStrength,
  rankLabel,
  shortenAddress,
  shortenAddressShort,
  groupAddress,
} from './format';

describe('format', () => {
  it('shows amounts with 2 decimals', () => {
    expect(formatAmount(1234.5)).toBe('1,234.50');
    expect(formatAmount(0)).toBe('0.00');
    expect(formatAmount(undefined)).toBe('0.00');
    expect(formatAmount('-1234567.891')).toBe('-1,234,567.89');
    expect(formatAmount('not a number')).toBe('0.00');
  });

  it('writes every amount exactly as Intl.NumberFormat en-US with 2 decimals does (rounding, ties, signs, separators)', () => {
    const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    // Ties and near-ties at each micro-unit of a few amounts, whole micro-unit values across the
    // magnitudes money takes, and random doubles of every size (a fixed linear congruential
    // sequence, so a failure repeats).
    const values: number[] = [0, -0, 0.005, 0.015, 1.005, 1.015, 2.675, -2.675, 999.995, 999_999.995, 1e15 + 0.5, -1e-9, 1e20, 123_456_789.125];
    for (let micro = 0; micro < 20_000; micro++) values.push(micro / 1e6, -micro / 1e6, 1.0 + micro / 1e6, 1234.5 + micro / 1e6);
    let x = 12345;
    const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      values.push(Math.round(next() * 10 ** Math.floor(next() * 16)) / 1e6);
      values.push((next() - 0.5) * 10 ** Math.floor(next() * 22));
    }
    const wrong = values.filter((v) => formatAmount(v) !== intl.format(v)).slice(0, 5);
    expect(wrong.map((v) => [v, formatAmount(v), intl.format(v)])).toEqual([]);
    expect(formatAmount(String(1234.5))).toBe('1,234.50');
  });

  it('writes clock times and days with no year by date-fns', () => {
    expect(formatClockTime(new Date(2026, 11, 5, 7, 5))).toBe('7:05 AM');
    expect(formatClockTime(new Date(2026, 11, 5, 0, 30))).toBe('12:30 AM');
    expect(formatClockTime(new Date(2026, 11, 5, 16, 7))).toBe('4:07 PM');
    expect(formatDayClockTime(new Date(2026, 11, 5, 7, 5))).toBe('Dec 5, 7:05 AM');
    expect(formatClockTime(null)).toBe('-');
  });

  it('shows a short date and time in en-US with a 12-hour clock, or the fallback', () => {
    const at = new Date(2025, 2, 5, 16, 7);
    // ICU puts a space or a narrow no-break space before PM, by version.
    expect(formatDateTimeShort(at)).toMatch(/^3\/5\/25, 4:07[ \u202f]PM$/u);
    expect(formatDateTimeShort(at.toISOString())).toBe(formatDateTimeShort(at));
    expect(formatDateTimeShort(null)).toBe('N/A');
    expect(formatDateTimeShort('never', '-')).toBe('-');
  });

  it('abbreviates at 1e3, 1e6, 1e9 and the wallet shows 0 decimals for K', () => {
    expect(abbreviateAmount(999.99)).toBe('999.99');
    expect(abbreviateAmount(1500)).toBe('1.50K');
    expect(abbreviateAmount(1500, { kDecimals: 0 })).toBe('1K');
    expect(abbreviateAmount(2_345_678)).toBe('2.34M');
    expect(abbreviateAmount(7_000_000_000)).toBe('7.00B');
  });

  it('formats the spec dates', () => {
    expect(formatDateLong('2025-03-05T10:00:00Z')).toBe('Mar 05, 2025');
    expect(formatDateLong(null)).toBe('-');
    expect(formatDateIso('2025-03-05T10:00:00Z')).toBe('2025-03-05');
  });

  it('has one date-time format, never a numeric short date', () => {
    // A local time: the format, not the zone, is under test.
    expect(formatDateTime(new Date(2026, 10, 23, 16, 7))).toBe('Nov 23, 2026, 4:07 PM');
    expect(formatDateTime(new Date(2026, 0, 5, 0, 30))).toBe('Jan 05, 2026, 12:30 AM');
    expect(formatDateTime(null)).toBe('N/A');
    expect(formatDateTime(new Date(2026, 10, 23))).not.toMatch(/\d+\/\d+\/\d+/);
    expect(formatDayShort('2026-03-05')).toBe('Mar 05');
  });

  it('shortens addresses 10+10 above 20 characters and 6+4 in the panel', () => {
    const a = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(shortenAddress(a)).toBe('TR7NHqjeKQ...otSzgjLj6t');
    expect(shortenAddress('short')).toBe('short');
    expect(shortenAddress(null)).toBe('N/A');
    expect(shortenAddressShort(a)).toBe('TR7NHq...Lj6t');
  });

  it('counts down as m:ss and h:mm:ss', () => {
    expect(formatCountdown(300)).toBe('5:00');
    expect(formatCountdown(59)).toBe('0:59');
    expect(formatCountdown(3725)).toBe('1:02:05');
    expect(formatCountdown(-4)).toBe('0:00');
  });

  it('scores password strength 0..5 with the spec labels', () => {
    expect(passwordStrength('abc')).toEqual({ score: 1, label: 'Weak password' });
    expect(passwordStrength('abcDEF')).toEqual({ score: 2, label: 'Medium password' });
    expect(passwordStrength('abcDEF12')).toEqual({ score: 4, label: 'Strong password' });
    expect(passwordStrength('abcDEF12!').score).toBe(5);
  });

  it("reads the rank as L<n> or 'No Rank'", () => {
    expect(rankLabel(0)).toBe('No Rank');
    expect(rankLabel(3)).toBe('L3');
  });
});

describe('groupAddress', () => {
  it('shows the whole address in groups of 4, the 0x on the first group', () => {
    expect(groupAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x5290 8400 0985 2788 6E0F 7030 0698 57D2 E416 9EE7');
    expect(groupAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('TR7N Hqje KQxG TCi8 q8ZY 4pL8 otSz gjLj 6t');
    expect(groupAddress('')).toBe('');
  });
});
