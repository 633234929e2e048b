import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';

describe('health and conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers /api/health with db ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    // The job runner and (once its table exists) the mail queue are reported beside the database.
    expect(res.json()).toEqual({ success: true, data: expect.objectContaining({ db: 'ok', jobs: { enabled: false, last: {} } }) });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Not found' });
  });

  it('serves an OpenAPI document at /api/docs/json', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
  });

  it('sends security headers with a strict script policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
