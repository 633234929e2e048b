import { plainDecimalText, toMicro } from '@app/core';

/**
 * A gateway amount (a JSON number, or decimal text: NOWPayments sends both) to micro-units,
 * through its decimal text, never float arithmetic. Crypto amounts may carry more than 6
 * decimals: what was received rounds down (never credit a fraction not received), what must be
 * paid rounds up. null for anything that is not a non-negative decimal.
 */
export function gatewayAmount(value: unknown, rounding: 'down' | 'up' = 'down'): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = plainDecimalText(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return null;
  const whole = m[1]!;
  const frac = m[2] ?? '';
  const kept = frac.slice(0, 6);
  const micro = toMicro(kept ? `${whole}.${kept}` : whole);
  if (micro === null) return null;
  const dropped = frac.slice(6);
  return rounding === 'up' && /[1-9]/.test(dropped) ? micro + 1n : micro;
}
