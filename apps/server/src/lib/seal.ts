import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A secret at rest: AES-256-GCM under a key derived from SESSION_SECRET (HKDF) for one purpose, so
 * a value sealed for one use never opens as another's (a TOTP secret, a queued code mail).
 */
export type SealPurpose = 'totp-secret-v1' | 'mail-code-v1';

function keyOf(masterSecret: string, purpose: SealPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', masterSecret, 'usdt-stake', purpose, 32));
}

export function seal(masterSecret: string, purpose: SealPurpose, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(masterSecret, purpose), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url')}`;
}

export function unseal(masterSecret: string, purpose: SealPurpose, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(masterSecret, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
