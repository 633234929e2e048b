import { createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { seal, unseal } from '../../lib/seal';

/** RFC 6238 as server.md section 9 fixes it: SHA-1, 6 digits, 30 s, ±1 step. */
export const TOTP_PERIOD = 30;
const ISSUER = 'USDT Stake';

function totpOf(secretBase32: string, label = 'account'): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD, secret: Secret.fromBase32(secretBase32) });
}

export function newTotpSecret(label: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, label).toString() };
}

/** The code for a moment (tests and RFC vectors). */
export function totpAt(secretBase32: string, timestampMs: number): string {
  return totpOf(secretBase32).generate({ timestamp: timestampMs });
}

/** The time step a code belongs to (within ±1 of now), or null when it matches none. */
export function matchTotpStep(secretBase32: string, code: string, nowMs = Date.now()): bigint | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return BigInt(Math.floor(nowMs / 1000 / TOTP_PERIOD) + delta);
}

/** The secret at rest: sealed (lib/seal.ts) under its own key, never the raw secret. */
export const sealSecret = (masterSecret: string, plain: string): string => seal(masterSecret, 'totp-secret-v1', plain);
export const openSecret = (masterSecret: string, sealed: string): string => unseal(masterSecret, 'totp-secret-v1', sealed);

const RC_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Ten single-use recovery codes, 'xxxxx-xxxxx' (50 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => RC_ALPHABET[b % RC_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export function recoveryCodeHash(masterSecret: string, code: string): string {
  const normal = code.replace(/[\s-]/g, '').toLowerCase();
  return createHmac('sha256', masterSecret).update(`recovery:${normal}`).digest('hex');
}
