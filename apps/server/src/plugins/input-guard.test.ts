import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';

/**
 * Issue 29, finding 4: about 5,000 levels of nested JSON (10 KB) overflowed the stack in the NUL
 * guard and answered 500, signed out. Failed before the fix (500).
 */
describe('deeply nested JSON', () => {
  const t = useTestApp();
  const send = (url: string, payload: string) => t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
  const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

  it('is a 400 (or 413 past the size limit), never a 500, on public and signed-in routes', async () => {
    const bodies = [
      nested(5_000),
      nested(30_000),
      `{"email":${nested(6_000)},"password":"x"}`,
      '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
      `{"__proto__":${nested(5_000)}}`,
      nested(40_000, '{"a":[', ']}'),
    ];
    for (const url of ['/api/auth/login', '/api/auth/register', '/api/user/fund-transfer']) {
      for (const body of bodies) {
        const res = await send(url, body);
        expect([400, 401, 413], `${url} ${body.slice(0, 12)} → ${res.statusCode} ${res.body.slice(0, 80)}`).toContain(res.statusCode);
        expect(res.json().success).toBe(false);
      }
    }
  });

  it('keeps ordinary nesting working: a body a few levels deep is validated as before', async () => {
    const res = await send('/api/auth/login', JSON.stringify({ email: { a: [{ b: [1, 2, { c: 'x' }] }] }, password: 'x' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email).toBeDefined();
  });
});
