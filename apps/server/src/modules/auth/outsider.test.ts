import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { emailsOf, EVM, otpOf } from '../../test/api';
import { mailsTo, nthMail, PASSWORD, verifiedUser, withTwoFactor } from '../../test/accounts';
import { useClock } from '../../test/clock';
import { auth, fundIncome } from '../../test/factories';
import { drainOutbox } from '../mail/outbox';
import { DEVICE_COOKIE } from './device';
import { GUESSES_PER_HOUR } from './guess-budget';
import { emailKey } from './otp';

/**
 * Issue 46: an outsider who knows only an e-mail address can do nothing to its owner. The guess
 * budgets are split by what the guesser holds (server design, section 9): the e-mail's (codes
 * anyone can ask for with the address), each known device's (a signed token handed out at every
 * sign-in), and the second factor's (needs the password or a live session). Each test here plays
 * the outsider first (the e-mail only, from many IPs), then the owner; each failed on the code
 * before the split (one budget per account: the owner's right codes answered 429).
 */
const TOO_MANY = 'Too many attempts. Try again later.';
const HOUR = 3_600_000;

describe('an outsider with only the e-mail', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000', RATE_LIMIT_MONEY_PER_MIN: '100000' });
  const clock = useClock(t);
  const email = emailsOf('outsider');
  let ip = 0;
  /** A POST as a browser would send it: from an address of its own, with the cookies it holds. */
  const post = (url: string, payload: object, o: { cookie?: string; token?: string; from?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: o.from ?? `198.51.100.${(ip++ % 250) + 1}`,
      headers: { ...(o.cookie ? { cookie: o.cookie } : {}), ...(o.token ? auth(o.token) : {}) },
    });
  /** The device cookie an answer set, as the browser sends it back. */
  const deviceCookie = (res: { headers: Record<string, unknown> }) => {
    const all = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
    const mine = all.find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
    return mine?.split(';')[0];
  };
  /** The outsider's loop: forgot-password ids, five wrong reset codes on each, until the e-mail's budget is spent. */
  async function spendTheEmailBudget(e: string) {
    const answers: number[] = [];
    for (let round = 0; round < 3; round++) {
      const id = (await post('/api/auth/forgot-password', { email: e })).json().data.access_id as string;
      for (let i = 0; i < 5; i++) answers.push((await post('/api/auth/reset-password', { access_id: id, otp: '000000', password: 'Hijack123' })).statusCode);
    }
    expect(answers.slice(0, GUESSES_PER_HOUR).every((s) => s === 400)).toBe(true);
    expect(answers.slice(GUESSES_PER_HOUR), 'the e-mail budget is spent').toEqual(Array(15 - GUESSES_PER_HOUR).fill(429));
  }

  it('spending the e-mail budget through forgot/reset leaves the owner’s TOTP at sign-in and at a withdrawal untouched', async () => {
    const u = await verifiedUser(t, email());
    const tf = await withTwoFactor(t, u.token, clock.now);
    await fundIncome(t.db, u.id, 100);
    await spendTheEmailBudget(u.email);

    // The owner, from a browser with no device token (a new phone): password, then the TOTP.
    const first = await post('/api/auth/login', { email: u.email, password: PASSWORD });
    expect(first.json().data.requires_2fa).toBe(true);
    const second = await post('/api/auth/login/2fa', { challenge_id: first.json().data.challenge_id, code: tf.code() });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.token).toBeTruthy();
    // And a withdrawal from the live session with the next step's code.
    const w = await post(
      '/api/withdraw/create',
      { token: 'USDT', network: 'BSC', wallet_address: EVM, amount_usd: 10, totp_code: tf.code(1) },
      { token: second.json().data.token as string },
    );
    expect(w.statusCode, w.body).toBe(200);
  });

  it('ten wrong passwords and a spent e-mail budget: the owner’s known device signs in with the password, a new device meets the back-off', async () => {
    const e = email();
    const reg = await post('/api/auth/register', { name: 'Owner Person', email: e, password: PASSWORD });
    const code = otpOf((await nthMail(t, e, 1, 'verification code')).text);
    const ver = await post('/api/auth/verify-otp', { access_id: reg.json().data.access_id, otp: code });
    const device = deviceCookie(ver);
    expect(device, 'the sign-in handed out a device token').toBeTruthy();
    expect(([] as string[]).concat(ver.headers['set-cookie'] ?? []).join()).toMatch(/Path=\/api; HttpOnly; SameSite=Strict/);

    // The outsider: ten wrong passwords (back-off), then the e-mail budget through the back-off's ids.
    for (let i = 0; i < 10; i++) expect((await post('/api/auth/login', { email: e, password: `Wrong${i}pass` })).statusCode).toBe(401);
    clock.advance(301_000);
    await spendTheEmailBudget(e);

    // The owner on the known device: the password signs in, no code asked for.
    const known = await post('/api/auth/login', { email: e, password: PASSWORD }, { cookie: device });
    expect(known.statusCode, known.body).toBe(200);
    expect(known.json().data.token).toBeTruthy();
    // The same device also resets the password past the spent e-mail budget (its own budget).
    clock.advance(301_000);
    const id = (await post('/api/auth/forgot-password', { email: e }, { cookie: device })).json().data.access_id as string;
    const resetCode = otpOf((await nthMail(t, e, 2, 'password reset code')).text); // the first went to the outsider's first ask
    const reset = await post('/api/auth/reset-password', { access_id: id, otp: resetCode, password: 'NewPass123' }, { cookie: device });
    expect(reset.json()).toEqual({ success: true, message: 'Password reset successfully' });

    // What remains (docs/security.md): while the outsider keeps going, a new device is in the
    // e-mail's back-off, and its code meets the spent e-mail budget.
    for (let i = 0; i < 10; i++) await post('/api/auth/login', { email: e, password: `Wrong${i}pass` });
    const fresh = await post('/api/auth/login', { email: e, password: 'NewPass123' });
    expect(fresh.json().message).toBe('We sent a code to your e-mail. Enter it to continue.');
    const onNew = await post('/api/auth/verify-otp', { access_id: fresh.json().data.access_id, otp: '123456' });
    expect(onNew.json().message).toBe(TOO_MANY);
  });

  it('a device token is the account’s: another account’s token, or a forged one, draws on the e-mail’s budget like none', async () => {
    const owner = await verifiedUser(t, email());
    const other = await post('/api/auth/login', { email: (await verifiedUser(t, email())).email, password: PASSWORD });
    const othersDevice = deviceCookie(other)!;
    const forged = `${DEVICE_COOKIE}=d1.1.0123456789abcdef.AAAAAAAAAAAAAAAAAAAAAA.${'A'.repeat(32)}`;
    clock.advance(301_000);
    const answers: number[] = [];
    for (const cookie of [othersDevice, forged, othersDevice]) {
      const id = (await post('/api/auth/forgot-password', { email: owner.email }, { cookie })).json().data.access_id as string;
      for (let i = 0; i < 5; i++)
        answers.push((await post('/api/auth/reset-password', { access_id: id, otp: '000000', password: 'Hijack123' }, { cookie })).statusCode);
    }
    // 15 wrong codes with foreign tokens: all on the one e-mail budget, so the last five are refused.
    expect(answers).toEqual([...Array<number>(GUESSES_PER_HOUR).fill(400), ...Array<number>(15 - GUESSES_PER_HOUR).fill(429)]);
  });

  it('in back-off a device token of another account changes no answer: right and wrong passwords still read the same', async () => {
    const owner = await verifiedUser(t, email());
    const stranger = deviceCookie(await post('/api/auth/login', { email: (await verifiedUser(t, email())).email, password: PASSWORD }))!;
    for (let i = 0; i < 10; i++) await post('/api/auth/login', { email: owner.email, password: `Wrong${i}pass` });
    const seenOf = (r: { statusCode: number; json: () => { message: string; data?: object } }) => ({
      status: r.statusCode,
      message: r.json().message,
      keys: Object.keys(r.json().data ?? {}),
    });
    const answers = [];
    for (const cookie of [undefined, stranger])
      for (const password of [PASSWORD, 'WrongPass1']) answers.push(seenOf(await post('/api/auth/login', { email: owner.email, password }, { cookie })));
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0]).toEqual({ status: 200, message: 'We sent a code to your e-mail. Enter it to continue.', keys: ['access_id'] });
  });

  it('a reset asked for inside the code-mail wait is mailed once when the wait ends, and its code works', async () => {
    const u = await verifiedUser(t, email()); // the sign-up code was just mailed: the wait runs
    const first = (await post('/api/auth/forgot-password', { email: u.email })).json().data.access_id as string;
    clock.advance(60_000);
    const second = (await post('/api/auth/forgot-password', { email: u.email })).json().data.access_id as string;
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(t, u.email, 'password reset code'), 'nothing before the wait ends').toHaveLength(0);
    const queued = await t.db
      .selectFrom('mail_outbox')
      .select(['id', 'next_attempt_at'])
      .where('to_email', '=', u.email)
      .where('kind', '=', 'otp_reset')
      .execute();
    expect(queued, 'one mail queued for both asks').toHaveLength(1);
    // Due about 240 s from now (the wait's end), by the database's clock.
    const dueIn = queued[0]!.next_attempt_at.getTime() - Date.now();
    expect(dueIn).toBeGreaterThan(200_000);
    expect(dueIn).toBeLessThan(300_000);
    // The wait ends (the outbox's clock moved on): the mail goes out, once.
    await t.db
      .updateTable('mail_outbox')
      .set({ next_attempt_at: new Date(Date.now() - 1000) })
      .where('id', '=', queued[0]!.id)
      .execute();
    clock.advance(240_000);
    await drainOutbox(t.ctx);
    const code = otpOf((await nthMail(t, u.email, 1, 'password reset code')).text);
    expect((await post('/api/auth/reset-password', { access_id: first, otp: code, password: 'NewPass123' })).json().message).toBe('Invalid or expired code');
    expect((await post('/api/auth/reset-password', { access_id: second, otp: code, password: 'NewPass123' })).json()).toEqual({
      success: true,
      message: 'Password reset successfully',
    });
    expect(mailsTo(t, u.email, 'password reset code')).toHaveLength(1);
  });

  it('a spent recovery code entered again is refused as used, not counted as a wrong guess', async () => {
    const u = await verifiedUser(t, email());
    const tf = await withTwoFactor(t, u.token, clock.now);
    const signIn = () => post('/api/auth/login', { email: u.email, password: PASSWORD });
    const once = await post('/api/auth/login/2fa', { challenge_id: (await signIn()).json().data.challenge_id, code: tf.recovery[0] });
    expect(once.statusCode).toBe(200);
    for (let i = 0; i < 2 * GUESSES_PER_HOUR; i++) {
      const again = await post('/api/auth/login/2fa', { challenge_id: (await signIn()).json().data.challenge_id, code: tf.recovery[0] });
      expect(again.json().message).toBe('This recovery code has already been used.');
    }
    const right = await post('/api/auth/login/2fa', { challenge_id: (await signIn()).json().data.challenge_id, code: tf.code() });
    expect(right.statusCode, right.body).toBe(200);
    clock.advance(HOUR);
  });
  it('parallel wrong passwords from a known device never count past its 10: the rest take the e-mail’s path', async () => {
    const e = email();
    const reg = await post('/api/auth/register', { name: 'Owner Person', email: e, password: PASSWORD });
    const code = otpOf((await nthMail(t, e, 1, 'verification code')).text);
    const device = deviceCookie(await post('/api/auth/verify-otp', { access_id: reg.json().data.access_id, otp: code }))!;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post('/api/auth/login', { email: e, password: `Wrong${i}pass` }, { cookie: device })),
    );
    expect(answers.every((a) => a.statusCode === 401 || a.statusCode === 200)).toBe(true);
    const id = /^device=d1\.[^.]+\.[^.]+\.([^.]+)\./.exec(device)![1]!;
    const counts = await t.db.selectFrom('login_failures').select(['email_key', 'failures']).execute();
    const onDevice = counts.find((c) => c.email_key === emailKey(t.ctx.secret, `device:${id}`));
    expect(onDevice?.failures, 'the device counted exactly its 10').toBe(10);
    expect(counts.find((c) => c.email_key === emailKey(t.ctx.secret, e))?.failures, 'the other 20 on the e-mail').toBe(20);
  });
});
