import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * NOWPayments IPN signatures (nowpayments.md §4): HMAC-SHA512, lowercase hex, keyed with the
 * trimmed IPN secret, over the body's JSON with every object's keys sorted recursively and
 * serialised as JavaScript's JSON.stringify does. NOWPayments' samples disagree on arrays, so an
 * IPN is accepted when the header matches any of (a) the canonical form with arrays kept, (b) the
 * raw body bytes (real IPNs arrive already sorted), (c) the current JS sample's variant, which
 * turns arrays into index-keyed objects. All three need the secret.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** (a) Recursively key-sorted compact JSON, arrays kept as arrays. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** (c) The JS sample's sortObject: every object-ish value (arrays too) is rebuilt as a plain object. */
function jsSampleSort(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  const src = value as Record<string, Json>;
  const out: Record<string, Json> = Object.create(null) as Record<string, Json>;
  for (const key of Object.keys(src).sort()) {
    const v = src[key]!;
    out[key] = v !== null && typeof v === 'object' ? jsSampleSort(v) : v;
  }
  return out;
}

export function jsSampleJson(value: Json): string {
  return JSON.stringify(jsSampleSort(value));
}

export function signIpn(payload: string | Buffer, secret: string): string {
  return createHmac('sha512', secret.trim()).update(payload).digest('hex');
}

function safeEqualHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface VerifiedIpn {
  body: Record<string, Json>;
  /** SHA-256 of the canonical form: the same notification re-sent has the same hash */
  bodyHash: string;
}

/**
 * Verifies an IPN's `x-nowpayments-sig` over its raw body. Returns the parsed body when the
 * signature matches, null otherwise (missing header, no secret, not a JSON object, no match).
 */
export function verifyIpn(raw: Buffer | string | undefined, signature: unknown, secret: string | undefined): VerifiedIpn | null {
  const key = secret?.trim();
  if (!key || raw === undefined || typeof signature !== 'string') return null;
  const given = signature.trim().toLowerCase();
  if (!/^[0-9a-f]{128}$/.test(given)) return null;
  const rawBuf = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  let parsed: Json;
  try {
    parsed = JSON.parse(rawBuf.toString('utf8')) as Json;
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const canonical = canonicalJson(parsed);
  // Every candidate is computed and compared, so the time taken does not depend on which matches.
  const matches = [signIpn(canonical, key), signIpn(rawBuf, key), signIpn(jsSampleJson(parsed), key)].map((h) => safeEqualHex(h, given));
  if (!matches.some(Boolean)) return null;
  return { body: parsed, bodyHash: createHash('sha256').update(canonical).digest('hex') };
}
