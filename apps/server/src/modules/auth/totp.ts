import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

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

/** The secret at rest: AES-256-GCM under a key derived from SESSION_SECRET (HKDF), never the raw secret. */
function keyOf(masterSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterSecret, 'usdt-stake', 'totp-secret-v1', 32));
}

export function sealSecret(masterSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(masterSecret), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url')}`;
}

export function openSecret(masterSecret: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(masterSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

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
