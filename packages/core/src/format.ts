// One module per function: the package index makes Node resolve and load about 1,500 files, which
// cost every server and CLI start 2.8 s (the browser build tree-shakes either form).
import { format as formatDate } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';

// No Intl on the way to the first figures: a page's first Intl formatter loads the ICU data, 170 ms
// of a phone's main thread under Lighthouse's 4x CPU slowdown (it was the dashboard's costliest
// function), and `toLocaleString` with a locale builds a new formatter on every call after that.
// An amount is the same text by hand. Intl rounds the number's shortest decimal form (what
// String(n) prints: 1.005, not the double's 1.00499999…) to the nearest, ties away from zero, so
// this does too, on the digits; format.test.ts compares the two on random values. eslint refuses
// `toLocale…String(` with arguments (eslint.config.js).
let bigAmountFormat: Intl.NumberFormat | undefined;
let dateTimeShortFormat: Intl.DateTimeFormat | undefined;

/** Amounts on screen: 2 decimals with thousands separators ("1,234.50"). */
export function formatAmount(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  const safe = Number.isFinite(n) ? n : 0;
  const abs = Math.abs(safe);
  // String(n) writes 1e21 and above in exponent form; no amount comes near.
  if (abs >= 1e21) return (bigAmountFormat ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(safe);
  // Below 1e-6 String(n) is in exponent form too, and every such value rounds to 0.00.
  const digits = abs < 1e-6 ? '0' : String(abs);
  const [int, frac = ''] = digits.split('.') as [string, string?];
  const cents = BigInt(int + frac.slice(0, 2).padEnd(2, '0')) + (frac.charCodeAt(2) >= 53 /* '5' */ ? 1n : 0n);
  const whole = String(cents / 100n).replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = safe < 0 || Object.is(safe, -0) ? '-' : '';
  return `${sign}${whole}.${String(cents % 100n).padStart(2, '0')}`;
}

/**
 * Card amounts abbreviated at 1e3, 1e6 and 1e9 (K, M, B) with 2 decimals; below 1,000 the plain
 * 2-decimal amount. `kDecimals` lets the wallet page show 0 decimals for K, as the spec asks.
 */
export function abbreviateAmount(value: number | string | null | undefined, opts: { kDecimals?: number } = {}): string {
  const n = typeof value === 'string' ? Number(value) : (value ?? 0);
  const safe = Number.isFinite(n) ? n : 0;
  const abs = Math.abs(safe);
  const units: [number, string, number][] = [
    [1e9, 'B', 2],
    [1e6, 'M', 2],
    [1e3, 'K', opts.kDecimals ?? 2],
  ];
  for (const [size, suffix, decimals] of units) {
    if (abs >= size) {
      const scaled = Math.trunc((safe / size) * 10 ** decimals) / 10 ** decimals;
      return scaled.toFixed(decimals) + suffix;
    }
  }
  return formatAmount(safe);
}

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : typeof value === 'number' ? new Date(value) : parseISO(value);
  return isValid(d) ? d : null;
}

/** The value in a date-fns pattern, or the fallback when it is empty or not a date. */
function formatOr(value: DateInput, pattern: string, fallback: string): string {
  const d = toDate(value);
  return d ? formatDate(d, pattern) : fallback;
}

/** 'MMM dd, yyyy' (income, profile Active Date): "Mar 05, 2025". */
export function formatDateLong(value: DateInput, fallback = '-'): string {
  return formatOr(value, 'MMM dd, yyyy', fallback);
}

/** yyyy-MM-dd (staking history). */
export function formatDateIso(value: DateInput, fallback = '-'): string {
  return formatOr(value, 'yyyy-MM-dd', fallback);
}

/**
 * The app's one date-time format (issue 12, item 13): the long date and a 12-hour time,
 * "Mar 05, 2025, 4:07 PM". Unambiguous in every locale, unlike "3/5/25".
 */
export function formatDateTime(value: DateInput, fallback = 'N/A'): string {
  return formatOr(value, 'MMM dd, yyyy, h:mm a', fallback);
}

/** A day on a chart axis: "Mar 05". */
export function formatDayShort(value: DateInput, fallback = '-'): string {
  return formatOr(value, 'MMM dd', fallback);
}

/** A clock time, 12-hour: "7:05 AM". */
export function formatClockTime(value: DateInput, fallback = '-'): string {
  return formatOr(value, 'h:mm a', fallback);
}

/** A day and a clock time, no year: "Dec 5, 7:05 AM". */
export function formatDayClockTime(value: DateInput, fallback = '-'): string {
  return formatOr(value, 'MMM d, h:mm a', fallback);
}

/** en-US short date with 12-hour time: "3/5/25, 4:07 PM". */
export function formatDateTimeShort(value: DateInput, fallback = 'N/A'): string {
  const d = toDate(value);
  if (!d) return fallback;
  dateTimeShortFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short', hour12: true });
  return dateTimeShortFormat.format(d);
}

/** Addresses longer than 20 characters: first 10 and last 10 (transaction details). */
export function shortenAddress(address: string | null | undefined, fallback = 'N/A'): string {
  if (!address) return fallback;
  return address.length > 20 ? `${address.slice(0, 10)}...${address.slice(-10)}` : address;
}

/** The demo deposit panel: first 6 characters, '...', last 4. */
export function shortenAddressShort(address: string | null | undefined): string {
  if (!address) return '';
  return address.length > 10 ? `${address.slice(0, 6)}...${address.slice(-4)}` : address;
}

/** Countdown text: m:ss, or h:mm:ss over an hour. */
export function formatCountdown(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Password strength 0..5 (spec section 5): length ≥ 8, uppercase, lowercase, digit, other symbol. */
export function passwordStrength(password: string): { score: number; label: 'Weak password' | 'Medium password' | 'Strong password' } {
  let score = 0;
  if (password.length >= 8) score++;
  if (/[A-Z]/.test(password)) score++;
  if (/[a-z]/.test(password)) score++;
  if (/\d/.test(password)) score++;
  if (/[^A-Za-z0-9]/.test(password)) score++;
  const label = score < 2 ? 'Weak password' : score <= 3 ? 'Medium password' : 'Strong password';
  return { score, label };
}

/** Rank text on the dashboard: L<n> or 'No Rank'. */
export function rankLabel(eligibleLevel: number | null | undefined): string {
  return eligibleLevel && eligibleLevel > 0 ? `L${eligibleLevel}` : 'No Rank';
}

/**
 * A deposit address in full, in groups of 4 ("0xC54c 2468 605A …", the 0x kept on the first
 * group): a person compares it with what their wallet shows group by group; a shortened one cannot
 * be checked at all.
 */
export function groupAddress(address: string | null | undefined): string {
  if (!address) return '';
  const prefix = /^0x/i.test(address) ? address.slice(0, 2) : '';
  return prefix + (address.slice(prefix.length).match(/.{1,4}/g) ?? []).join(' ');
}
