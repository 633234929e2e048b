import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';
import { inject, otpOf } from '../test/api';
import { admin as adminApi } from '@app/core/contracts/admin';
import { auth as authApi } from '@app/core/contracts/auth';
import { user as userApi } from '@app/core/contracts/user';
import { nthMail, withTwoFactor } from '../test/accounts';
import { useClock } from '../test/clock';
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

  it('signs an admin with 2FA in during maintenance (password, then code), also through the login back-off', async () => {
    const e = `ops${Date.now()}@example.test`;
    await createAdmin(t.db, e, 'AdminPass123');
    const first = await inject(t.app, authApi.login, { body: { email: e, password: 'AdminPass123' } });
    const tf = await withTwoFactor(t, first.data().token as string, clock.now);
    expect((await runCommand(t.ctx, 'settings:maintenance', ['on'])).exitCode).toBe(0);
    t.app.resetMaintenanceCache();
    try {
      const user = await inject(t.app, userApi.info, { token: first.data().token as string });
      expect(user.statusCode).toBe(503);
      const login = await inject(t.app, authApi.login, { body: { email: e, password: 'AdminPass123' } });
      expect(login.data()).toMatchObject({ requires_2fa: true });
      const second = await inject(t.app, authApi.login2fa, { body: { challenge_id: login.data().challenge_id, code: tf.code(0) } });
      expect(second.statusCode, second.body).toBe(200);
      expect(second.data()).toMatchObject({ is_admin: true });
      const admin = await inject(t.app, adminApi.settings, { token: second.data().token as string });
      expect(admin.statusCode).toBe(200);

      for (let i = 0; i < 10; i++) await inject(t.app, authApi.login, { body: { email: e, password: `Wrong${i}pass` } });
      const coded = await inject(t.app, authApi.login, { body: { email: e, password: 'AdminPass123' } });
      const code = otpOf((await nthMail(t, e, 1, 'sign-in code')).text);
      const verified = await inject(t.app, authApi.verifyOtp, { body: { access_id: coded.data().access_id, otp: code } });
      expect(verified.statusCode, verified.body).toBe(200);
      clock.advance(30_000);
      const done = await inject(t.app, authApi.login2fa, { body: { challenge_id: verified.data().challenge_id, code: tf.code(0) } });
      expect(done.data()).toMatchObject({ is_admin: true });
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
