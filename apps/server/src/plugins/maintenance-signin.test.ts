import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';
import { otpOf, poster } from '../test/api';
import { nthMail, withTwoFactor } from '../test/accounts';
import { useClock } from '../test/clock';
import { auth } from '../test/factories';
import { createAdmin } from '../modules/admin/create-admin';
import { runCommand } from '../cli/commands';
import { getSettings } from '../modules/settings/service';

/**
 * Issue 29, finding 6: during maintenance an admin with 2FA could not finish signing in (login/2fa
 * answered 503), nor one whose login needed the mailed code, and no CLI command turned maintenance
 * off. Failed before the fix (503 on both steps; 'Unknown command').
 */
describe('maintenance: every step of an admin sign-in stays open, and the CLI switches it', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000' });
  const clock = useClock(t);
  const post = poster(t);

  it('signs an admin with 2FA in during maintenance (password, then code), also through the login back-off', async () => {
    const e = `ops${Date.now()}@example.test`;
    await createAdmin(t.db, e, 'AdminPass123');
    const first = await post('/api/auth/login', { email: e, password: 'AdminPass123' });
    const tf = await withTwoFactor(t, first.json().data.token as string, clock.now);
    expect((await runCommand(t.ctx, 'settings:maintenance', ['on'])).exitCode).toBe(0);
    t.app.resetMaintenanceCache();
    try {
      const user = await t.app.inject({ method: 'GET', url: '/api/user/get-info', headers: auth(first.json().data.token as string) });
      expect(user.statusCode).toBe(503);
      const login = await post('/api/auth/login', { email: e, password: 'AdminPass123' });
      expect(login.json().data).toMatchObject({ requires_2fa: true });
      const second = await post('/api/auth/login/2fa', { challenge_id: login.json().data.challenge_id, code: tf.code(0) });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json().data).toMatchObject({ is_admin: true });
      const admin = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: auth(second.json().data.token as string) });
      expect(admin.statusCode).toBe(200);

      for (let i = 0; i < 10; i++) await post('/api/auth/login', { email: e, password: `Wrong${i}pass` });
      const coded = await post('/api/auth/login', { email: e, password: 'AdminPass123' });
      const code = otpOf((await nthMail(t, e, 1, 'sign-in code')).text);
      const verified = await post('/api/auth/verify-otp', { access_id: coded.json().data.access_id, otp: code });
      expect(verified.statusCode, verified.body).toBe(200);
      clock.advance(30_000);
      const done = await post('/api/auth/login/2fa', { challenge_id: verified.json().data.challenge_id, code: tf.code(0) });
      expect(done.json().data).toMatchObject({ is_admin: true });
    } finally {
      expect(await runCommand(t.ctx, 'settings:maintenance', ['off'])).toEqual({ exitCode: 0, output: 'Maintenance mode is off' });
      t.app.resetMaintenanceCache();
    }
    expect((await getSettings(t.db)).maintenance_mode).toBe(false);
  });

  it('settings:maintenance on|off switches the flag and refuses anything else', async () => {
    expect(await runCommand(t.ctx, 'settings:maintenance', ['on'])).toEqual({ exitCode: 0, output: 'Maintenance mode is on' });
    expect((await getSettings(t.db)).maintenance_mode).toBe(true);
    expect(await runCommand(t.ctx, 'settings:maintenance', ['off'])).toEqual({ exitCode: 0, output: 'Maintenance mode is off' });
    expect((await getSettings(t.db)).maintenance_mode).toBe(false);
    expect((await runCommand(t.ctx, 'settings:maintenance', ['maybe'])).exitCode).toBe(2);
    expect((await runCommand(t.ctx, 'settings:maintenance', [])).exitCode).toBe(2);
  });
});
