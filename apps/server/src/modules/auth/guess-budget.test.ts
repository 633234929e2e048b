import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { emailsOf, inject, otpOf, withdrawer } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { security } from '@app/core/contracts/security';
import { mailsTo, nthMail, PASSWORD, verifiedUser, withTwoFactor } from '../../test/accounts';
import { useClock } from '../../test/clock';
import { fundIncome } from '../../test/factories';
import { codeCompared, type CodeComparedEvent } from './guess-budget';
import { emailKey } from './otp';

/**
 * Issue 29, findings 1 and 3: one guess budget per account (server design, section 9, "One guess
 * budget per account"). Each test here failed on the code before the budget (see the session note).
 */
const TOO_MANY = { success: false, code: 'TOO_MANY_ATTEMPTS', message: 'Too many attempts. Try again later.' };
/** The same refusal where the request has a code field: the message sits on it, as the table's other code failures do. */
const onField = (field: string) => ({ ...TOO_MANY, errors: { [field]: TOO_MANY.message } });
const DEAD = 'Invalid or expired code';
const HOUR = 3_600_000;
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

describe('one guess budget per account', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000', RATE_LIMIT_MONEY_PER_MIN: '100000' });
  const clock = useClock(t);
  const email = emailsOf('budget');
  const forgot = (e: string) => inject(t.app, authApi.forgotPassword, { body: { email: e } });
  const reset = (accessId: string, otp: string) => inject(t.app, authApi.resetPassword, { body: { access_id: accessId, otp, password: 'NewPass123' } });

  it('finding 1: a reset code killed by 5 wrong tries is not replaced by a fresh mail before 300 s; the next access id carries the mailed code', async () => {
    const u = await verifiedUser(t, email());
    clock.advance(301_000); // the sign-up's code mail holds any other code mail back for 300 s
    const first = (await forgot(u.email)).json().data.access_id as string;
    const code = otpOf((await nthMail(t, u.email, 1, 'password reset code')).text);
    for (let i = 0; i < 5; i++) expect((await reset(first, wrongFor(code))).json().message).toBe(DEAD);
    const second = (await forgot(u.email)).json().data.access_id as string;
    const done = await reset(second, code);
    expect(done.json(), 'the code in the mailbox works on the new access id').toEqual({ success: true, message: 'Password reset successfully' });
    await t.mailbox.waitFor(u.email, 10_000, 'Your password was reset');
    expect(mailsTo(t, u.email, 'password reset code')).toHaveLength(1);
    // After the wait a new code may be mailed, once.
    clock.advance(301_000);
    await forgot(u.email);
    await forgot(u.email);
    await nthMail(t, u.email, 2, 'password reset code');
  });

  it('finding 1: the reset loop stops at 10 wrong codes an hour and 30 a day, the right code included, and the owner is mailed once', async () => {
    const u = await verifiedUser(t, email());
    clock.advance(301_000);
    let accessId = (await forgot(u.email)).json().data.access_id as string;
    const code = otpOf((await nthMail(t, u.email, 1, 'password reset code')).text);
    const answers: number[] = [];
    /** The attacker's loop: a fresh access id from forgot-password, then five wrong codes on it (its tries). */
    const guess = async () => {
      accessId = (await forgot(u.email)).json().data.access_id as string;
      for (let i = 0; i < 5; i++) answers.push((await reset(accessId, wrongFor(code))).statusCode);
    };
    for (let i = 0; i < 4; i++) await guess();
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(answers.slice(10).every((s) => s === 429)).toBe(true);
    accessId = (await forgot(u.email)).json().data.access_id as string;
    const right = await reset(accessId, code);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual(TOO_MANY);
    // A right password with no second factor is never held back by the code budget.
    expect((await inject(t.app, authApi.login, { body: { email: u.email, password: PASSWORD } })).data().token).toBeTruthy();
    await nthMail(t, u.email, 1, 'Too many wrong codes');
    for (let i = 0; i < 3; i++) await guess();
    // An hour later there is room for 10 more; after 30 in a day, none until the day is over.
    for (let hour = 1; hour <= 2; hour++) {
      clock.advance(HOUR + 1000);
      answers.length = 0;
      for (let i = 0; i < 4; i++) await guess();
      expect(answers.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(answers.slice(10).every((s) => s === 429)).toBe(true);
    }
    clock.advance(HOUR + 1000);
    accessId = (await forgot(u.email)).json().data.access_id as string;
    expect((await reset(accessId, wrongFor(code))).json()).toEqual(TOO_MANY);
    clock.advance(21 * HOUR);
    accessId = (await forgot(u.email)).json().data.access_id as string;
    expect((await reset(accessId, wrongFor(code))).json().message).toBe(DEAD);
    // One mail per time the budget ran out (three times), never one per refused try.
    await nthMail(t, u.email, 3, 'Too many wrong codes');
    expect(mailsTo(t, u.email, 'Too many wrong codes')).toHaveLength(3);
  });

  it('finding 3: 60 parallel wrong withdrawal codes get at most 10 comparisons; the right code then gets 429 and nothing is debited', async () => {
    const u = await verifiedUser(t, email());
    const tf = await withTwoFactor(t, u.token, clock.now);
    await fundIncome(t.db, u.id, 1000);
    const withdraw = withdrawer(t);
    const me = { ...u, username: '', name: '' };
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => withdraw(me, { amount_usd: 10, totp_code: tf.wrong(i) })));
    const compared = answers.filter((a) => a.json().message === 'Invalid two-factor code').length;
    expect(compared).toBeLessThanOrEqual(10);
    for (const a of answers) if (a.json().message !== 'Invalid two-factor code') expect(a.json()).toEqual(onField('totp_code'));
    const right = await withdraw(me, { amount_usd: 10, totp_code: tf.code(0) });
    expect(right.json()).toEqual(onField('totp_code'));
    expect(await t.db.selectFrom('withdrawals').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  it('finding 3: parallel login/2fa guesses on 12 challenges get at most 10 comparisons; the right code then gets 429 and no session', async () => {
    const u = await verifiedUser(t, email());
    const tf = await withTwoFactor(t, u.token, clock.now);
    const challenges: string[] = [];
    for (let i = 0; i < 12; i++)
      challenges.push((await inject(t.app, authApi.login, { body: { email: u.email, password: PASSWORD } })).data().challenge_id as string);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => inject(t.app, authApi.login2fa, { body: { challenge_id: challenges[i % 12], code: tf.wrong(i) } })),
    );
    expect(answers.filter((a) => a.json().message === 'Invalid two-factor code').length).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.statusCode === 200)).toEqual([]);
    const fresh = (await inject(t.app, authApi.login, { body: { email: u.email, password: PASSWORD } })).data().challenge_id as string;
    const right = await inject(t.app, authApi.login2fa, { body: { challenge_id: fresh, code: tf.code(0) } });
    expect(right.json()).toEqual(onField('code'));
    const sessions = await t.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).execute();
    expect(sessions).toHaveLength(1); // the sign-up's
  });

  it.runIf(testDbKind === 'postgres')(
    'on PostgreSQL, 5 bursts of 80 parallel wrong codes over every code route (withdrawal, login/2fa, 2FA off, reset) never compare more than 10',
    async () => {
      const seen: CodeComparedEvent[] = [];
      const watch = (e: unknown) => void seen.push(e as CodeComparedEvent);
      subscribe(codeCompared.name, watch);
      try {
        for (let round = 0; round < 5; round++) {
          const u = await verifiedUser(t, email());
          clock.advance(301_000);
          const tf = await withTwoFactor(t, u.token, clock.now);
          await fundIncome(t.db, u.id, 1000);
          const me = { ...u, username: '', name: '' };
          const withdraw = withdrawer(t);
          const challenge = (await inject(t.app, authApi.login, { body: { email: u.email, password: PASSWORD } })).data().challenge_id as string;
          const resetId = (await forgot(u.email)).json().data.access_id as string;
          const answers = await Promise.all(
            Array.from({ length: 80 }, (_, i) =>
              i % 4 === 0
                ? withdraw(me, { amount_usd: 10, totp_code: tf.wrong(i) })
                : i % 4 === 1
                  ? inject(t.app, authApi.login2fa, { body: { challenge_id: challenge, code: tf.wrong(i) } })
                  : i % 4 === 2
                    ? inject(t.app, security.disable2fa, { token: u.token, body: { code: tf.wrong(i) } })
                    : reset(resetId, tf.wrong(i)),
            ),
          );
          const key = emailKey(t.ctx.secret, u.email);
          const wrong = seen.filter((e) => e.key === key && e.result === 'wrong').length;
          expect(wrong, `round ${round}`).toBeLessThanOrEqual(10);
          expect(wrong).toBeGreaterThan(0);
          expect(answers.filter((a) => a.statusCode === 200)).toEqual([]);
          // Past the 10: 429, or 400 for a challenge its 5 tries killed (15 each on login/2fa and reset).
          expect(answers.filter((a) => a.statusCode === 429).length).toBeGreaterThanOrEqual(30);
        }
      } finally {
        unsubscribe(codeCompared.name, watch);
      }
    },
  );
});
