import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { emailsOf, inject } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { security } from '@app/core/contracts/security';
import { PASSWORD, verifiedUser } from '../../test/accounts';

/**
 * Issue 29, finding 8: a stolen session could guess the current password at change-password without
 * end. Wrong current passwords now count like wrong logins (server design, section 9): from the
 * 10th in a row the route answers 429 whatever is sent, and a login then needs the mailed code.
 * Failed before the fix (the 11th try with the right password changed it).
 */
describe('change-password counts wrong current passwords like wrong logins', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000' });
  const email = emailsOf('chpw');

  it('after 10 wrong current passwords, the right one gets 429 too, and the e-mail is in login back-off', async () => {
    const u = await verifiedUser(t, email());
    const change = (current: string) =>
      inject(t.app, security.changePassword, { token: u.token, body: { current_password: current, new_password: 'Changed123' } });
    for (let i = 0; i < 10; i++) expect((await change(`Guess${i}pass`)).json().errors).toEqual({ current_password: 'Current password is incorrect' });
    const right = await change(PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ success: false, code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts. Try again later.' });
    const login = await inject(t.app, authApi.login, { body: { email: u.email, password: PASSWORD } });
    expect(login.json()).toMatchObject({ message: 'We sent a code to your e-mail. Enter it to continue.' });
    expect(login.data().token).toBeUndefined();
  });

  it('a right current password clears nothing it should not: below the threshold it works and the count starts again', async () => {
    const u = await verifiedUser(t, email());
    const change = (current: string, next = 'Changed123') =>
      inject(t.app, security.changePassword, { token: u.token, body: { current_password: current, new_password: next } });
    for (let i = 0; i < 9; i++) await change(`Guess${i}pass`);
    expect((await change(PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 9; i++) await change(`Guess${i}pass`);
    expect((await change('Changed123', 'Again1234')).statusCode).toBe(200);
  });

  /**
   * Attack report: the wrong try was counted after the argon2 comparison (read the count, compare,
   * then count), so parallel tries all passed the check and all compared: on PostgreSQL 20 parallel
   * wrong passwords got 20 comparisons. A try now claims its place in the count first, in one
   * statement, so exactly LOGIN_BACKOFF_AFTER (10) compare. Failed before the fix (20 answers 400).
   */
  it('20 parallel wrong current passwords: exactly 10 are compared, the rest get 429, and then the right one too', async () => {
    const u = await verifiedUser(t, email());
    const compared: string[] = [];
    const watch = (event: unknown) => {
      if ((event as { userId: bigint }).userId === u.id) compared.push((event as { result: string }).result);
    };
    subscribe('usdt-stake:security:password-compared', watch);
    try {
      const change = (current: string) =>
        inject(t.app, security.changePassword, { token: u.token, body: { current_password: current, new_password: 'Changed123' } });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => change(`Guess${i}pass`)));
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 400)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(10);
      for (const a of answers.filter((x) => x.statusCode === 429))
        expect(a.json()).toEqual({ success: false, code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts. Try again later.' });
      expect(compared).toEqual(Array.from({ length: 10 }, () => 'wrong'));
      const right = await change(PASSWORD);
      expect(right.statusCode).toBe(429);
      expect(compared).toHaveLength(10);
    } finally {
      unsubscribe('usdt-stake:security:password-compared', watch);
    }
  });
});
