import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { emailsOf, inject, otpOf } from '../../test/api';
import type { Contract } from '@app/core/contracts/define';
import { auth as authApi } from '@app/core/contracts/auth';
import { user as userApi } from '@app/core/contracts/user';
import { useClock } from '../../test/clock';

const email = emailsOf('user');
const good = { name: 'Alice Example', password: 'Secret123' };

describe('auth: sign-up with OTP, login, logout', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
  const clock = useClock(t);
  async function waitForNewMail(e: string, seen: number) {
    for (let i = 0; i < 50; i++) {
      const mine = t.mailbox.mails.filter((m) => m.to.includes(e));
      if (mine.length > seen) return mine[mine.length - 1]!;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no new mail to ${e}`);
  }
  /** Registers and verifies through the API; returns the token and username. */
  async function signUp(extra: Record<string, unknown> = {}) {
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e, ...extra } });
    expect(reg.statusCode, reg.body).toBe(200);
    const mail = await t.mailbox.waitFor(e);
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: reg.data().access_id, otp: otpOf(mail.text) } });
    expect(ver.statusCode, ver.body).toBe(200);
    const token = ver.data().token as string;
    const info = await inject(t.app, userApi.info, { token });
    return { email: e, token, username: info.data().username };
  }

  it('registers, mails a 6-digit OTP over SMTP, verifies, and the token opens get-info and profile', async () => {
    const sponsor = await signUp();
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e, referral_id: sponsor.username.toLowerCase() } });
    expect(reg.json()).toMatchObject({ success: true, message: 'Registration successful. Please verify your email.' });
    expect(reg.data().token).toBeUndefined();
    const mail = await t.mailbox.waitFor(e);
    expect(mail.subject).toBe('Your verification code');
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: reg.data().access_id, otp: otpOf(mail.text) } });
    expect(ver.json()).toMatchObject({ success: true, message: 'OTP verified successfully', data: { is_admin: false } });
    const token = ver.data().token;
    const info = await inject(t.app, userApi.info, { token });
    expect(info.data()).toMatchObject({
      name: 'Alice Example',
      status: 'inactive',
      eligible_level: 0,
      user_detail: { deposit_balance: 0, total_staked: 0, total_income: 0, roi_income: 0, direct_referral_income: 0, reward_income: 0, balance: 0 },
      activity: [],
    });
    expect(info.data().username).toMatch(/^[A-Z0-9]{9}$/);
    const profile = await inject(t.app, userApi.profile, { token });
    expect(profile.data()).toMatchObject({ avatar: null, email: e, referral_id: sponsor.username, status: 'inactive', active_date: null });
  });

  it('answers the referral check with the sponsor name, 404 for an unknown ID, 400 for a malformed one', async () => {
    const sponsor = await signUp();
    const okRes = await inject(t.app, authApi.checkUser, { query: { referral_id: sponsor.username } });
    expect(okRes.json()).toEqual({ success: true, message: 'Referral ID is valid', data: { userName: 'Alice Example' } });
    const unknown = await inject(t.app, authApi.checkUser, { query: { referral_id: 'ZZZZZZZZZ' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Invalid referral ID' });
    const bad = await inject(t.app, authApi.checkUser, { query: { referral_id: 'AB-12' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Referral ID must be 9 alphanumeric characters');
  });

  it('refuses an unknown referral ID at sign-up', async () => {
    const res = await inject(t.app, authApi.register, { body: { ...good, email: email(), referral_id: 'ZZZZZZZZZ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'VALIDATION', message: 'Invalid referral ID', errors: { referral_id: 'Invalid referral ID' } });
  });

  it('refuses a duplicate e-mail with 409, whatever its case', async () => {
    // Registered means proven: an unverified sign-up gives way to a new one (the mailbox wins, mailbox-wins.test.ts).
    const { email: e } = await signUp();
    const dup = await inject(t.app, authApi.register, { body: { ...good, email: e.toUpperCase() } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Email already registered');
  });

  it.each([
    [{ name: '' }, 'name', 'Name is required'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
    [{ password: 'Ab1' }, 'password', 'Password must be at least 6 characters'],
    [{ password: 'Abcdef1'.repeat(5) }, 'password', 'Password must not exceed 30 characters'],
    [{ password: 'abcdef1' }, 'password', 'Password must contain at least one uppercase letter'],
    [{ password: 'ABCDEF1' }, 'password', 'Password must contain at least one lowercase letter'],
    [{ password: 'Abcdefg' }, 'password', 'Password must contain at least one number'],
    [{ referral_id: 'ABC12' }, 'referral_id', 'Referral ID must be 9 characters (5/9)'],
    [{ referral_id: 'ABC-12345' }, 'referral_id', 'Referral ID must be 9 alphanumeric characters'],
    [{ name: 42 }, 'name', 'Name is required'],
  ])('register refuses %j with the spec message on the field', async (override, field, message) => {
    const res = await inject(t.app, authApi.register, { body: { ...good, email: email(), ...override } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors[field]).toBe(message);
  });

  /** Each endpoint with a body it would take, for the rows below to spoil one field of. */
  const wellFormed = {
    login: { contract: authApi.login, body: { email: 'a@b.co', password: 'x' } },
    'verify-otp': { contract: authApi.verifyOtp, body: { access_id: 'abc', otp: '123456' } },
  };
  it.each([
    ['login', { email: '' }, 'Email is required'],
    ['login', { email: 'x@' }, 'Invalid email address'],
    ['login', { password: '' }, 'Password is required'],
    ['verify-otp', { otp: '12345' }, 'OTP must be 6 digits.'],
    ['verify-otp', { otp: '12a456' }, 'OTP must be 6 digits.'],
    ['verify-otp', { access_id: '' }, 'Access ID not found. Please sign up again.'],
  ] as const)('%s refuses %j', async (endpoint, override, message) => {
    const { contract, body } = wellFormed[endpoint];
    const res = await inject(t.app, contract, { body: { ...body, ...override } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  it('answers malformed JSON and wrong types with 400, never 500', async () => {
    const raw = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(raw.statusCode).toBe(400);
    expect(raw.json()).toEqual({ success: false, code: 'INVALID_JSON', message: 'Invalid JSON body' });
    const types = await inject(t.app, authApi.register, { body: { name: [], email: 5, password: {} } });
    expect(types.statusCode).toBe(400);
    expect(Object.keys(types.json().errors).sort()).toEqual(['email', 'name', 'password']);
    const empty = await inject(t.app, authApi.register);
    expect(empty.statusCode).toBe(400);
  });

  it('kills the access id after 5 wrong codes: the right code then fails', async () => {
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    const code = otpOf((await t.mailbox.waitFor(e)).text);
    const wrong = code === '000000' ? '111111' : '000000';
    const access = reg.data().access_id;
    for (let i = 0; i < 5; i++) {
      const r = await inject(t.app, authApi.verifyOtp, { body: { access_id: access, otp: wrong } });
      expect(r.statusCode).toBe(400);
    }
    const right = await inject(t.app, authApi.verifyOtp, { body: { access_id: access, otp: code } });
    expect(right.statusCode).toBe(400);
    expect(right.data()).toBeUndefined();
  });

  it('refuses a resend before 300 s (429) and allows it after, killing the old access id', async () => {
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    const old = reg.data().access_id;
    const early = await inject(t.app, authApi.resendOtp, { body: { access_id: old } });
    expect(early.statusCode).toBe(429);
    expect(early.json().message).toBe('Please wait before requesting a new OTP');
    clock.advance(301_000); // instead of sleeping through the wait
    t.mailbox.mails.length = 0;
    const later = await inject(t.app, authApi.resendOtp, { body: { access_id: old } });
    expect(later.json()).toMatchObject({ success: true, message: 'OTP resent successfully' });
    const fresh = later.data().access_id;
    expect(fresh).not.toBe(old);
    const code = otpOf((await t.mailbox.waitFor(e)).text);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: old, otp: code } })).statusCode).toBe(400);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: fresh, otp: code } })).statusCode).toBe(200);
  });

  it('login on an unverified account gives an access id and no token; within the resend wait the code already mailed serves it, after it a new one is mailed', async () => {
    const e = email();
    await inject(t.app, authApi.register, { body: { ...good, email: e } });
    const code = otpOf((await t.mailbox.waitFor(e)).text);
    const mailsBefore = t.mailbox.mails.filter((m) => m.to.includes(e)).length;
    const res = await inject(t.app, authApi.login, { body: { email: e, password: good.password } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Please verify your email to continue');
    expect(res.data().access_id).toBeTruthy();
    expect(res.data().token).toBeUndefined();
    // No second mail inside the wait: logging in again and again cannot flood the inbox.
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.mails.filter((m) => m.to.includes(e)).length).toBe(mailsBefore);
    // After the wait a login mails a fresh code; the old access id is dead.
    clock.advance(301_000);
    const later = await inject(t.app, authApi.login, { body: { email: e, password: good.password } });
    const fresh = otpOf((await waitForNewMail(e, mailsBefore)).text);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: res.data().access_id, otp: code } })).json().message).toBe('Invalid or expired code');
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: later.data().access_id, otp: fresh } });
    expect(ver.statusCode, ver.body).toBe(200);
    expect(ver.data().token).toBeTruthy();
  });

  it('answers unknown e-mail and wrong password with the same 401', async () => {
    const u = await signUp();
    const wrong = await inject(t.app, authApi.login, { body: { email: u.email, password: 'Wrong1234' } });
    const unknown = await inject(t.app, authApi.login, { body: { email: 'nobody@example.test', password: 'Wrong1234' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('Invalid email or password');
    const okLogin = await inject(t.app, authApi.login, { body: { email: u.email.toUpperCase(), password: good.password } });
    expect(okLogin.json()).toMatchObject({ success: true, message: 'Login successful', data: { is_admin: false } });
  });

  it('refuses a blocked account with 403', async () => {
    const u = await signUp();
    await t.db.updateTable('users').set({ status: 'blocked' }).where('username', '=', u.username).execute();
    const res = await inject(t.app, authApi.login, { body: { email: u.email, password: good.password } });
    expect(res.statusCode).toBe(403);
    expect((await inject(t.app, userApi.info, { token: u.token })).statusCode).toBe(403);
  });

  it('logs out: the token then gets 401', async () => {
    const u = await signUp();
    const out = await inject(t.app, authApi.logout, { token: u.token, body: {} });
    expect(out.json()).toEqual({ success: true, message: 'Logged out successfully' });
    const after = await inject(t.app, userApi.info, { token: u.token });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Invalid or expired token');
    expect((await inject(t.app, userApi.profile)).statusCode).toBe(401);
  });

  it('checks a username for a transfer: found, oneself, unknown, empty, malformed', async () => {
    const a = await signUp();
    const b = await signUp();
    const get = (q: string) => inject(t.app, userApi.check, { token: a.token, query: { username: q } });
    expect((await get(b.username.toLowerCase())).json()).toEqual({
      success: true,
      message: 'User found',
      data: { userName: 'Alice Example', username: b.username },
    });
    expect((await get(a.username)).json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'You cannot transfer to yourself' });
    expect((await get('ZZZZZZZZZ')).statusCode).toBe(404);
    expect((await get('')).json()).toMatchObject({ success: false, message: 'Username is required' });
    expect((await get('ABC')).json()).toMatchObject({ success: false, message: 'Username must be exactly 9 characters' });
  });

  it('lists no social providers when none is configured', async () => {
    const res = await inject(t.app, authApi.providers);
    expect(res.json()).toEqual({ success: true, data: { google: false, facebook: false, instagram: false } });
  });
});

describe('auth: rate limits', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '3' });

  it('answers 429 past the limit on login, register, OTP and lookups', async () => {
    const route = <C extends Contract>(c: C, input: Parameters<typeof inject<C>>[2]) => ({ c, call: () => inject(t.app, c, input) });
    for (const { c, call } of [
      route(authApi.login, { body: { email: 'x@example.test', password: 'Secret123' } }),
      route(authApi.register, { body: { name: 'x', email: 'bad', password: 'x' } }),
      route(authApi.verifyOtp, { body: { access_id: 'x', otp: '123456' } }),
      route(authApi.resendOtp, { body: { access_id: 'x' } }),
      route(authApi.checkUser, { query: { referral_id: 'ZZZZZZZZZ' } }),
    ]) {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await call()).statusCode);
      expect(codes.slice(3), c.path).toEqual([429, 429]);
      const last = await call();
      expect(last.json()).toEqual({ success: false, code: 'RATE_LIMITED', message: 'Too many requests, please try again later.' });
    }
  });
});
