import { describe, expect, it } from 'vitest';
import { microToDecimal, microToNumber, mulDivDown, percentOf, toMicro, usd } from './money';

describe('money', () => {
  it('reads decimal text and numbers exactly to 6 places', () => {
    expect(toMicro('12.5')).toBe(12_500_000n);
    expect(toMicro(10.1)).toBe(10_100_000n);
    expect(toMicro(0.000001)).toBe(1n);
    expect(toMicro('-3.000001')).toBe(-3_000_001n);
    expect(toMicro(1e-7)).toBeNull();
    expect(toMicro('50.0000001')).toBeNull();
    expect(toMicro('1.5000000')).toBe(1_500_000n);
    expect(toMicro(Number.NaN)).toBeNull();
    expect(toMicro('abc')).toBeNull();
    expect(toMicro(1e21)).toBe(10n ** 21n * 1_000_000n);
  });

  it('writes micro-units back without float drift', () => {
    expect(microToDecimal(12_345_678n)).toBe('12.345678');
    expect(microToDecimal(-1n)).toBe('-0.000001');
    expect(microToDecimal(200_000_000n)).toBe('200');
    expect(microToNumber(usd('0.1') + usd('0.2'))).toBe(0.3);
    expect(JSON.stringify({ a: microToNumber(123_456_789_012_345n) })).toBe('{"a":123456789.012345}');
  });

  it('takes percentages exactly and rounds down', () => {
    expect(percentOf(usd(100), '0.5')).toBe(usd('0.5'));
    expect(percentOf(usd(30), 5)).toBe(usd('1.5'));
    expect(percentOf(1n, '0.5')).toBe(0n);
    expect(mulDivDown(usd(100), 7n, 3n)).toBe(233_333_333n);
  });
});
