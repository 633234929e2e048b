import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashToken, tokenHashMemoSize } from './token-hash';

const hmac = (secret: string, token: string) => createHmac('sha256', secret).update(token).digest('hex');

describe('hashToken', () => {
  it('is the HMAC-SHA256 of the token under the secret, the first time and when remembered', () => {
    const secret = randomBytes(32).toString('hex');
    for (let i = 0; i < 50; i++) {
      const token = randomBytes(32).toString('base64url');
      expect(hashToken(secret, token)).toBe(hmac(secret, token));
      expect(hashToken(secret, token)).toBe(hmac(secret, token));
    }
  });

  it('never answers one secret with the hash of another, even where secret and token would join into the same text', () => {
    // Same token under two secrets, and the pairs ('a:b', 'c') / ('a', 'b:c') that a memo keyed by
    // `${secret}:${token}` would confuse.
    const token = randomBytes(32).toString('base64url');
    for (const [secret, t] of [
      ['first-secret', token],
      ['second-secret', token],
      ['a:b', 'c'],
      ['a', 'b:c'],
      ['a:b', 'c'],
    ] as const)
      expect(hashToken(secret, t)).toBe(hmac(secret, t));
  });

  it('stays bounded under a flood of distinct tokens and keeps answering right', () => {
    const secret = randomBytes(16).toString('hex');
    const first = randomBytes(32).toString('base64url');
    hashToken(secret, first);
    for (let i = 0; i < 12_000; i++) hashToken(secret, `flood-${i}`);
    expect(tokenHashMemoSize()).toBeLessThanOrEqual(10_000);
    expect(tokenHashMemoSize()).toBeGreaterThan(9_000);
    // The first token's entry was pushed out; its hash is computed again, the same.
    expect(hashToken(secret, first)).toBe(hmac(secret, first));
    expect(hashToken(secret, 'flood-11999')).toBe(hmac(secret, 'flood-11999'));
  });
});
