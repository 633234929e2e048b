import { z } from 'zod';
import { toMicro } from '../money';

/** A JSON number amount: 'Amount is required' when missing, 'Amount must be a number' otherwise. */
export const amountNumber = () =>
  z.number({ error: (iss) => (iss.input === undefined || iss.input === null ? 'Amount is required' : 'Amount must be a number') });

/** True when the amount is a whole multiple of `step` USD (checked in micro-units, never floats). */
export function isMultipleOf(value: number, step: number): boolean {
  const v = toMicro(value);
  const s = toMicro(step);
  return v !== null && s !== null && s > 0n && v % s === 0n;
}

/** True when the amount has at most `decimals` decimal places. */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const v = toMicro(value);
  if (v === null) return false;
  return v % 10n ** BigInt(6 - decimals) === 0n;
}

/**
 * Forms hold text; the shared request schema wants a JSON number. This wraps a request schema's
 * number field for a form: '' means missing, other text is read with Number() (NaN fails as
 * 'must be a number').
 */
export function formNumber<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => {
    if (v === '' || v === null || v === undefined) return undefined;
    if (typeof v === 'string') return Number(v.trim());
    return v;
  }, schema);
}

export const emailField = () =>
  z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, { error: 'Email is required', abort: true })
    .max(254, 'Invalid email address')
    .email('Invalid email address');

/** 9 letters or digits, uppercased. Used for referral IDs and usernames. */
export const ALNUM9_RE = /^[A-Z0-9]{9}$/;
