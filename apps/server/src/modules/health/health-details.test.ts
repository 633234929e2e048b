import { describe, expect, it } from 'vitest';
import { health } from '@app/core/contracts/health';
import { useTestApp } from '../../test/app';
import { inject } from '../../test/api';
import { createUser } from '../../test/factories';
import { failuresOf } from './failures';

/**
 * "The small doors", finding 4: the public /api/health told anyone the scheduler's jobs and their
 * outcomes, the mail queue, the free disk and the chain watchers' heights. An anonymous caller now
 * gets the status only; the details need METRICS_TOKEN (as /metrics) or an admin's session. The
 * HTTP status is the same for both. Failed before the fix (the anonymous answer had db, jobs, …).
 */
describe('/api/health: status for everyone, details for operators', () => {
  const METRICS_TOKEN = 'health-details-metrics-token-0123';
  const t = useTestApp({ METRICS_TOKEN });
  const get = (authorization?: string) => t.app.inject({ method: 'GET', url: '/api/health', headers: authorization ? { authorization } : {} });

  it('answers an anonymous caller, a wrong token and a signed-in user with the status only', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${METRICS_TOKEN}x`, `Bearer ${user.token}`, METRICS_TOKEN]) {
      const res = await get(authorization);
      expect(res.statusCode, String(authorization)).toBe(200);
      expect(res.json(), String(authorization)).toEqual({ success: true, data: { status: 'ok' } });
    }
    // The contract helper (no token) sees the same.
    expect((await inject(t.app, health.check)).json()).toEqual({ success: true, data: { status: 'ok' } });
  });

  it('gives the details with METRICS_TOKEN or an admin session', async () => {
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    for (const authorization of [`Bearer ${METRICS_TOKEN}`, `Bearer ${admin.token}`]) {
      const res = await get(authorization);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: expect.objectContaining({ status: 'ok', db: 'ok', jobs: { enabled: false, last: {} } }) });
    }
  });

  it('keeps the same 503 for everyone while unhealthy, with the details only for operators', async () => {
    const failures = failuresOf(t.ctx);
    failures.record({ reason: 'disk', code: '53100', retryAfterSeconds: 5 });
    try {
      const anonymous = await get();
      expect(anonymous.statusCode).toBe(503);
      expect(anonymous.headers['retry-after']).toBe('5');
      expect(anonymous.json()).toEqual({ success: false, code: 'UNAVAILABLE', message: 'Service temporarily unavailable', data: { status: 'degraded' } });
      const operator = await get(`Bearer ${METRICS_TOKEN}`);
      expect(operator.statusCode).toBe(503);
      expect(operator.headers['retry-after']).toBe('5');
      expect(operator.json()).toMatchObject({
        success: false,
        message: 'Service temporarily unavailable',
        data: { status: 'degraded', db: 'ok', jobs: { enabled: false }, failure: { reason: 'disk', code: '53100' } },
      });
    } finally {
      failures.last.delete('disk');
    }
    expect((await get()).statusCode).toBe(200);
  });
});
