import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { inject } from '../../test/api';
import { health } from '@app/core/contracts/health';

describe('health and conventions', () => {
  const METRICS_TOKEN = 'health-test-metrics-token-0123456';
  const t = useTestApp({ METRICS_TOKEN });

  it('answers /api/health with db ok', async () => {
    const res = await inject(t.app, health.check);
    expect(res.statusCode).toBe(200);
    // Anonymous: the status only (details: health-details.test.ts).
    expect(res.json()).toEqual({ success: true, data: { status: 'ok' } });
    expect(res.headers['x-request-id']).toBeTruthy();
    // With METRICS_TOKEN, the job runner and (once its table exists) the mail queue are reported beside the database.
    const details = await t.app.inject({ method: 'GET', url: '/api/health', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(details.json()).toEqual({ success: true, data: expect.objectContaining({ status: 'ok', db: 'ok', jobs: { enabled: false, last: {} } }) });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Not found' });
  });

  it('serves an OpenAPI document at /api/docs/json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });

  it('sends pages security headers with a strict script policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login' });
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends the API header set on answers, errors and unknown API paths, and the document set on pages', async () => {
    const api = {
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    };
    // '/%61pi/…' is '/api/…' to the router, so it gets the API set too (issue 29, finding 9).
    for (const url of ['/api/health', '/api/user/wallet', '/api/nope', '/%61pi/user/wallet']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers).toMatchObject(api);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^[\w-]+$/);
    }
    const document = {
      'content-security-policy':
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    for (const url of ['/dashboard', '/login']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers).toMatchObject(document);
    }
    const given = await t.app.inject({ method: 'GET', url: '/api/user/wallet', headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
  });
});
