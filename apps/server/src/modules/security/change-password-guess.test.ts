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
    expect(right.json()).toEqual({ success: false, message: 'Too many attempts. Try again later.' });
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
});
