/**
 * Money is USDT (1 USDT = 1 USD) held as integer micro-units (1 USDT = 1,000,000) in bigint.
 * This file is the only place that converts between micro-units and decimal text or JSON numbers.
 */
export const MICRO = 1_000_000n;
export const MONEY_DECIMALS = 6;

const DECIMAL_RE = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Decimal text ("12.5", "-0.000001") or a JS number to micro-units; null when not exact to 6 places. */
export function toMicro(value: string | number | bigint): bigint | null {
  if (typeof value === 'bigint') return value * MICRO;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    // String(n) is the shortest text that reads back as n, so 10.1 gives "10.1", not 10.0999…
    text = plainDecimalText(value);
  } else {
    text = value.trim();
  }
  const m = DECIMAL_RE.exec(text);
  if (!m) return null;
  const [, sign, whole, frac = ''] = m;
  if (frac.length > MONEY_DECIMALS && !/^0*$/.test(frac.slice(MONEY_DECIMALS))) return null;
  const micro = BigInt(whole!) * MICRO + BigInt(frac.slice(0, MONEY_DECIMALS).padEnd(MONEY_DECIMALS, '0'));
  return sign ? -micro : micro;
}

/** The shortest decimal text of a JS number, without an exponent (1e-7 → "0.0000001"). */
export function plainDecimalText(n: number): string {
  const text = String(n);
  return /e/i.test(text) ? expandExponent(text) : text;
}

function expandExponent(text: string): string {
  const [mant, expText] = text.toLowerCase().split('e') as [string, string];
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const [i, f = ''] = mant.replace('-', '').split('.') as [string, string?];
  const digits = i + f;
  const point = i.length + exp;
  let out: string;
  if (point <= 0) out = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = digits.slice(0, point) + '.' + digits.slice(point);
  return (neg ? '-' : '') + out;
}

/** Micro-units to plain decimal text with no trailing zeros ("12.5", "0", "-3.000001"). */
export function microToDecimal(micro: bigint): string {
  const neg = micro < 0n;
  const abs = neg ? -micro : micro;
  const whole = abs / MICRO;
  const frac = (abs % MICRO).toString().padStart(MONEY_DECIMALS, '0').replace(/0+$/, '');
  return (neg ? '-' : '') + whole.toString() + (frac ? '.' + frac : '');
}

const SAFE_MICRO = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Micro-units to a JSON number: the double nearest to the exact decimal value, and JSON prints
 * the shortest text that reads back as that number, so the digits sent are exact. Up to 2^53
 * micro-units (9 billion USDT) the amount and 10^6 are exact doubles, and IEEE division rounds
 * its exact quotient to the nearest double, the same number parsing the decimal text gives
 * (money.test.ts compares the two over a million amounts); that is one division instead of
 * bigint arithmetic and string work on every amount of every answer. Beyond, the decimal text.
 */
export function microToNumber(micro: bigint): number {
  if (micro <= SAFE_MICRO && micro >= -SAFE_MICRO) return Number(micro) / 1_000_000;
  return Number(microToDecimal(micro));
}

/** amount × numerator / denominator, rounded down (toward zero): never credits more than owed. */
export function mulDivDown(amount: bigint, numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new Error('division by zero');
  return (amount * numerator) / denominator;
}

/**
 * A percentage given as decimal text or number ("0.5", 5) applied to an amount, rounded down.
 * The percentage is itself scaled to micro-units so 0.5% is exact.
 */
export function percentOf(amount: bigint, percent: string | number): bigint {
  const p = toMicro(percent);
  if (p === null) throw new Error(`bad percentage ${percent}`);
  return (amount * p) / (100n * MICRO);
}

export function usd(value: number | string): bigint {
  const m = toMicro(value);
  if (m === null) throw new Error(`not an exact amount: ${value}`);
  return m;
}

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
