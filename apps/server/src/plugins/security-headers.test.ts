import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';

/**
 * Issue 29, finding 9: `/%61pi/...` answers lacked `Cache-Control: no-store` (the header set was
 * picked by the raw URL). Every /api answer carries it now, matched or not, however spelled.
 * Failed before the fix for the encoded spellings.
 */
describe('no-store on every /api answer', () => {
  const t = useTestApp();

  it('sends Cache-Control: no-store for matched, unmatched and encoded /api paths', async () => {
    for (const url of [
      '/api/user/wallet',
      '/%61pi/user/wallet',
      '/ap%69/user/get-info',
      '/api/nope',
      '/%61pi/nope',
      '/api',
      '/%61pi',
      '/api/user/wallet?x=1',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['cache-control'], `${url} → ${res.statusCode}`).toBe('no-store');
    }
    const post = await t.app.inject({ method: 'POST', url: '/%61pi/auth/login', payload: { email: 'a@b.test', password: 'x' } });
    expect(post.headers['cache-control']).toBe('no-store');
  });
});
