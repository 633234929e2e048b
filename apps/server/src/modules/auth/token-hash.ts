import { createHmac, hash } from 'node:crypto';

/**
 * Token hashes already computed, by a digest of (secret, token): every authenticated request
 * hashes its bearer token, and under load a fresh HMAC object per request cost the server about
 * 15 µs of CPU per request (about 15 % of a wallet read; docs/benchmarks.md, 2026-11-25 evening),
 * far more than the one-shot digest that finds the memo entry. The key is a SHA-256 of the
 * length-prefixed secret and token, so the memo holds no token (a process dump yields only values
 * the sessions table already holds) and two secrets in one process (tests) never share an entry.
 * Bounded: past MEMO_MAX entries the oldest goes, so a flood of distinct tokens costs what it did
 * without the memo. A hash never changes for a given secret and token, so nothing here needs to
 * be revoked: whether the session is live is decided by the session row, every time.
 */
const MEMO_MAX = 10_000;
const memo = new Map<string, string>();

/** Tokens are opaque random strings; only their keyed hash is stored, so a database leak yields no usable token. */
export function hashToken(secret: string, token: string): string {
  const key = hash('sha256', `${secret.length}:${secret}:${token}`, 'base64');
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = createHmac('sha256', secret).update(token).digest('hex');
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, value);
  return value;
}

/** For tests: how many hashes are remembered. */
export function tokenHashMemoSize(): number {
  return memo.size;
}
