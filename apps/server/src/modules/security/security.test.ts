import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { fundIncome } from '../../test/factories';
import { inject } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { withdrawals } from '@app/core/contracts/money';
import { demoPayments, payments } from '@app/core/contracts/payments';
import { security } from '@app/core/contracts/security';
import { user as userApi } from '@app/core/contracts/user';
import { drainOutbox } from '../mail/outbox';
import { completeWithdrawal, rejectWithdrawal } from '../withdrawals/service';
import { totpAt } from '../auth/totp';
import { configurePayments } from '../payments/gateways/registry';

/** Server design, section 9, through the API: reset, change of password, TOTP 2FA, sessions, mail. */
const otpOf = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;
let seq = 0;
const email = () => `sec${Date.now()}${seq++}@example.test`;
const PASSWORD = 'Secret123';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('account security (server.md section 9)', () => {
  let t: TestApp;
  /** The app's clock, moved on instead of waiting (a sign-up's code mail holds the next code mail back 300 s). */
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset), advance: (ms: number) => void (offset += ms) };
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });
    t.ctx.now = clock.now;
  });
  afterAll(async () => t.close());

  async function signUp() {
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { name: 'Sam Secure', email: e, password: PASSWORD } });
    const code = otpOf((await t.mailbox.waitFor(e)).text);
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: reg.data().access_id, otp: code } });
    expect(ver.statusCode, ver.body).toBe(200);
    const id = (await t.db.selectFrom('users').select('id').where('email', '=', e).executeTakeFirstOrThrow()).id;
    clock.advance(301_000);
    return { email: e, token: ver.data().token as string, id };
  }
  const login = (e: string, password = PASSWORD) => inject(t.app, authApi.login, { body: { email: e, password } });

  /** A code for the next time step not used yet: the server refuses a step twice. */
  let lastStep = 0;
  function nextTotp(secret: string): string {
    const step = Math.floor(clock.now().getTime() / 30_000);
    // Within one step only one code can be accepted; the ±1 window lets us use the next step once.
    const use = step > lastStep ? step : lastStep + 1;
    lastStep = use;
    return totpAt(secret, use * 30_000);
  }
  async function enable2fa(token: string) {
    const setup = await inject(t.app, security.setup2fa, { token, body: {} });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauth_url } = setup.data() as { secret: string; otpauth_url: string };
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/USDT%20Stake:.*secret=/);
    expect(otpauth_url).toContain('algorithm=SHA1');
    lastStep = 0;
    const on = await inject(t.app, security.enable2fa, { token, body: { code: nextTotp(secret) } });
    expect(on.statusCode, on.body).toBe(200);
    return { secret, recovery: on.data().recovery_codes as string[] };
  }

  describe('TOTP helper', () => {
    // RFC 6238 appendix B, SHA-1 seed '12345678901234567890' (base32 below); 6 digits are the last 6 of the 8.
    it.each([
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
      [20000000000, '353130'],
    ])('matches the RFC 6238 vector at T=%i', (seconds, code) => {
      expect(totpAt('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', seconds * 1000)).toBe(code);
    });
  });

  describe('password reset', () => {
    it('answers the same for an unknown and a known e-mail, with an access id either way', async () => {
      const u = await signUp();
      const known = await inject(t.app, authApi.forgotPassword, { body: { email: u.email } });
      const unknown = await inject(t.app, authApi.forgotPassword, { body: { email: 'nobody-here@example.test' } });
      for (const r of [known, unknown]) {
        expect(r.statusCode).toBe(200);
        expect(r.json()).toMatchObject({ success: true, message: 'If an account exists for this e-mail, a reset code has been sent.' });
        expect(r.json().data.access_id).toMatch(/^[\w-]{43}$/);
      }
      const bad = await inject(t.app, authApi.resetPassword, { body: { access_id: unknown.data().access_id, otp: '123456', password: 'NewPass123' } });
      expect(bad.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'Invalid or expired code' });
    });

    it('resets with the mailed code, signs every device out, mails a notice, and the new password works', async () => {
      const u = await signUp();
      const other = (await login(u.email)).json().data.token as string;
      const forgot = await inject(t.app, authApi.forgotPassword, { body: { email: u.email.toUpperCase() } });
      const mail = await t.mailbox.waitFor(u.email, 10_000, 'password reset code');
      expect(mail.html).toContain(otpOf(mail.text));
      const wrong = await inject(t.app, authApi.resetPassword, {
        body: { access_id: forgot.data().access_id, otp: otpOf(mail.text) === '000000' ? '111111' : '000000', password: 'NewPass123' },
      });
      expect(wrong.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'Invalid or expired code' });
      const weak = await inject(t.app, authApi.resetPassword, { body: { access_id: forgot.data().access_id, otp: otpOf(mail.text), password: 'short' } });
      expect(weak.json().message).toBe('Password must be at least 6 characters');
      const res = await inject(t.app, authApi.resetPassword, { body: { access_id: forgot.data().access_id, otp: otpOf(mail.text), password: 'NewPass123' } });
      expect(res.json()).toEqual({ success: true, message: 'Password reset successfully' });
      expect((await inject(t.app, userApi.profile, { token: u.token })).statusCode).toBe(401);
      expect((await inject(t.app, userApi.profile, { token: other })).statusCode).toBe(401);
      expect((await login(u.email)).statusCode).toBe(401);
      expect((await login(u.email, 'NewPass123')).json().data.token).toBeTruthy();
      const notice = await t.mailbox.waitFor(u.email, 10_000, 'Your password was reset');
      expect(notice.text).not.toMatch(/\b\d{6}\b/);
      // The code works once.
      const again = await inject(t.app, authApi.resetPassword, { body: { access_id: forgot.data().access_id, otp: otpOf(mail.text), password: 'Other123x' } });
      expect(again.json().message).toBe('Invalid or expired code');
    });

    it('does not accept a reset code at verify-otp, nor a sign-up code at reset-password', async () => {
      const u = await signUp();
      const forgot = await inject(t.app, authApi.forgotPassword, { body: { email: u.email } });
      const code = otpOf((await t.mailbox.waitFor(u.email, 10_000, 'password reset code')).text);
      const asLogin = await inject(t.app, authApi.verifyOtp, { body: { access_id: forgot.data().access_id, otp: code } });
      expect(asLogin.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'Invalid or expired code' });
      expect(asLogin.data()).toBeUndefined();
    });
  });

  describe('change of password', () => {
    it('refuses a wrong current password with the field named', async () => {
      const u = await signUp();
      const res = await inject(t.app, security.changePassword, { token: u.token, body: { current_password: 'Wrong1234', new_password: 'NewPass123' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        code: 'VALIDATION',
        message: 'Current password is incorrect',
        errors: { current_password: 'Current password is incorrect' },
      });
    });

    it('changes it, keeps the calling session, revokes the others and mails a notice', async () => {
      const u = await signUp();
      const other = (await login(u.email)).json().data.token as string;
      const res = await inject(t.app, security.changePassword, { token: u.token, body: { current_password: PASSWORD, new_password: 'Changed123' } });
      expect(res.json()).toEqual({ success: true, message: 'Password changed successfully' });
      expect((await inject(t.app, userApi.profile, { token: u.token })).statusCode).toBe(200);
      expect((await inject(t.app, userApi.profile, { token: other })).statusCode).toBe(401);
      expect((await login(u.email, 'Changed123')).json().data.token).toBeTruthy();
      const notice = await t.mailbox.waitFor(u.email, 10_000, 'Your password was changed');
      expect(notice.html).toContain('USDT Stake');
      expect(notice.text).not.toContain('Changed123');
    });
  });

  describe('two-factor authentication', () => {
    it('sets up without enabling, refuses a wrong code, enables with a right one and gives 10 recovery codes once', async () => {
      const u = await signUp();
      const setup = await inject(t.app, security.setup2fa, { token: u.token, body: {} });
      expect((await inject(t.app, security.info, { token: u.token })).data().two_factor_enabled).toBe(false);
      const stored = await t.db.selectFrom('users').select('totp_secret_enc').where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(stored.totp_secret_enc).not.toContain(setup.data().secret);
      const wrong = await inject(t.app, security.enable2fa, { token: u.token, body: { code: '000000' } });
      expect(wrong.json()).toMatchObject({ success: false, message: 'Invalid two-factor code' });
      lastStep = 0;
      const on = await inject(t.app, security.enable2fa, { token: u.token, body: { code: nextTotp(setup.data().secret) } });
      expect(on.data().recovery_codes).toHaveLength(10);
      expect(new Set(on.data().recovery_codes).size).toBe(10);
      expect((await inject(t.app, security.info, { token: u.token })).data().two_factor_enabled).toBe(true);
      await t.mailbox.waitFor(u.email, 10_000, 'Two-factor authentication is on');
      // Set-up again while on is refused.
      expect((await inject(t.app, security.setup2fa, { token: u.token, body: {} })).statusCode).toBe(409);
    });

    it('asks for the second step at login; a TOTP gives the token and the same step is refused the second time', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      const first = await login(u.email);
      expect(first.json()).toMatchObject({ success: true, data: { requires_2fa: true } });
      expect(first.json().data.token).toBeUndefined();
      const code = nextTotp(secret);
      const ok = await inject(t.app, authApi.login2fa, { body: { challenge_id: first.json().data.challenge_id, code } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.data().token).toBeTruthy();
      // Replay: the same code on a fresh challenge.
      const second = await login(u.email);
      const replay = await inject(t.app, authApi.login2fa, { body: { challenge_id: second.json().data.challenge_id, code } });
      expect(replay.json()).toMatchObject({ success: false, message: 'This code was just used. Wait for the next one.' });
      // The used challenge is dead.
      expect((await inject(t.app, authApi.login2fa, { body: { challenge_id: first.json().data.challenge_id, code: nextTotp(secret) } })).json().message).toBe(
        'Invalid or expired code',
      );
    });

    it('lets a recovery code sign in once, and a challenge dies after 5 wrong tries', async () => {
      const u = await signUp();
      const { secret, recovery } = await enable2fa(u.token);
      const c1 = await login(u.email);
      const byRecovery = await inject(t.app, authApi.login2fa, { body: { challenge_id: c1.json().data.challenge_id, code: recovery[0]!.toUpperCase() } });
      expect(byRecovery.data().token).toBeTruthy();
      const c2 = await login(u.email);
      expect((await inject(t.app, authApi.login2fa, { body: { challenge_id: c2.json().data.challenge_id, code: recovery[0] } })).json().message).toBe(
        'This recovery code has already been used.',
      );
      const c3 = await login(u.email);
      for (let i = 0; i < 5; i++) await inject(t.app, authApi.login2fa, { body: { challenge_id: c3.json().data.challenge_id, code: '000000' } });
      expect((await inject(t.app, authApi.login2fa, { body: { challenge_id: c3.json().data.challenge_id, code: nextTotp(secret) } })).json().message).toBe(
        'Invalid or expired code',
      );
    });

    it('needs the code for a withdrawal: missing and wrong are refused with nothing debited', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      await fundIncome(t.db, u.id, 100);
      const body = { amount_usd: 50, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' };
      const missing = await inject(t.app, withdrawals.create, { token: u.token, body });
      expect(missing.json()).toEqual({
        success: false,
        code: 'TWO_FA_REQUIRED',
        message: 'Two-factor code is required',
        errors: { totp_code: 'Two-factor code is required' },
      });
      const wrong = await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: '000000' } });
      expect(wrong.json()).toEqual({
        success: false,
        code: 'INVALID_2FA',
        message: 'Invalid two-factor code',
        errors: { totp_code: 'Invalid two-factor code' },
      });
      expect((await inject(t.app, userApi.wallet, { token: u.token })).data().balance).toBe(100);
      const ok = await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: nextTotp(secret) } });
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await inject(t.app, userApi.wallet, { token: u.token })).data().balance).toBe(50);
    });

    it('disables with a code, mails it, and logins are one step again', async () => {
      const u = await signUp();
      const { recovery } = await enable2fa(u.token);
      expect((await inject(t.app, security.disable2fa, { token: u.token, body: { code: '000000' } })).json().message).toBe('Invalid two-factor code');
      const off = await inject(t.app, security.disable2fa, { token: u.token, body: { code: recovery[3] } });
      expect(off.json()).toEqual({ success: true, message: 'Two-factor authentication disabled' });
      await t.mailbox.waitFor(u.email, 10_000, 'Two-factor authentication is off');
      expect((await login(u.email)).json().data.token).toBeTruthy();
    });

    it('in login back-off a 2FA user passes the mailed code and then the second step, never the code alone', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      for (let i = 0; i < 10; i++) await login(u.email, `Wrong${i}pass`);
      const first = await login(u.email);
      expect(first.json().data.access_id).toBeTruthy();
      const code = otpOf((await t.mailbox.waitFor(u.email, 10_000, 'sign-in code')).text);
      const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: first.json().data.access_id, otp: code } });
      expect(ver.data().token).toBeUndefined();
      expect(ver.data()).toMatchObject({ requires_2fa: true });
      const done = await inject(t.app, authApi.login2fa, { body: { challenge_id: ver.data().challenge_id, code: nextTotp(secret) } });
      expect(done.data().token).toBeTruthy();
    });

    it('refuses every code of the account after 10 wrong ones in an hour, even the right one, and gives room again an hour later', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      await fundIncome(t.db, u.id, 100);
      const body = { amount_usd: 10, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' };
      // The guess budget (guess-budget.ts) spans every code: withdrawal, login step, turning 2FA off.
      for (let i = 0; i < 4; i++)
        expect((await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: String(100000 + i) } })).json().message).toBe(
          'Invalid two-factor code',
        );
      for (let i = 0; i < 3; i++) {
        const c = await login(u.email);
        expect((await inject(t.app, authApi.login2fa, { body: { challenge_id: c.json().data.challenge_id, code: String(200000 + i) } })).json().message).toBe(
          'Invalid two-factor code',
        );
      }
      for (let i = 0; i < 3; i++)
        expect((await inject(t.app, security.disable2fa, { token: u.token, body: { code: String(300000 + i) } })).json().message).toBe(
          'Invalid two-factor code',
        );
      const locked = await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: nextTotp(secret) } });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe('Too many attempts. Try again later.');
      const c = await login(u.email);
      expect((await inject(t.app, authApi.login2fa, { body: { challenge_id: c.json().data.challenge_id, code: nextTotp(secret) } })).statusCode).toBe(429);
      expect((await inject(t.app, security.disable2fa, { token: u.token, body: { code: nextTotp(secret) } })).statusCode).toBe(429);
      expect((await inject(t.app, userApi.wallet, { token: u.token })).data().balance).toBe(100);
      clock.advance(3_601_000);
      expect((await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: nextTotp(secret) } })).statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it("lists the sessions with the current one marked, revokes another, and 404s for an id that is not the caller's", async () => {
      const u = await signUp();
      const other = await login(u.email);
      const mine = await inject(t.app, security.info, { token: u.token });
      expect(mine.data().email).toBe(u.email);
      const sessions = mine.data().sessions as { id: string; current: boolean; created_at: string; ip: string | null; user_agent: string | null }[];
      expect(sessions.length).toBe(2);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      expect(sessions[0]).toHaveProperty('last_used_at');
      const stranger = await signUp();
      const strangerSession = (await inject(t.app, security.info, { token: stranger.token })).data().sessions[0]!.id as string;
      const foreign = await inject(t.app, security.revokeSession, { token: u.token, params: { id: strangerSession } });
      expect(foreign.statusCode).toBe(404);
      expect((await inject(t.app, userApi.profile, { token: stranger.token })).statusCode).toBe(200);
      const target = sessions.find((s) => !s.current)!;
      const revoke = await inject(t.app, security.revokeSession, { token: u.token, params: { id: target.id } });
      expect(revoke.json()).toEqual({ success: true, message: 'Session revoked' });
      expect((await inject(t.app, userApi.profile, { token: other.json().data.token })).statusCode).toBe(401);
      const bad = await inject(t.app, security.revokeSession, { token: u.token, params: { id: 'abc' } });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('money mail', () => {
    it('mails withdrawal requested, completed (with the tx hash) and rejected (with the reason), text and HTML', async () => {
      const u = await signUp();
      await fundIncome(t.db, u.id, 200);
      const body = { amount_usd: 50, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' };
      const w1 = await inject(t.app, withdrawals.create, { token: u.token, body });
      const requested = await t.mailbox.waitFor(u.email, 10_000, 'Withdrawal requested');
      expect(requested.text).toContain('50.00 USDT');
      expect(requested.text).toContain('47.50 USDT');
      expect(requested.html).toContain(ADDRESS);
      await completeWithdrawal(t.db, BigInt(w1.data().id), { txHash: '0xabc123def' });
      const paid = await t.mailbox.waitFor(u.email, 10_000, 'Withdrawal paid');
      expect(paid.text).toContain('0xabc123def');
      const w2 = await inject(t.app, withdrawals.create, { token: u.token, body });
      await rejectWithdrawal(t.db, BigInt(w2.data().id), { reason: 'Address on a sanctions list' });
      const rejected = await t.mailbox.waitFor(u.email, 10_000, 'Withdrawal rejected');
      expect(rejected.text).toContain('Address on a sanctions list');
    });

    it('mails a credited deposit with the amount and network, once per credit', async () => {
      configurePayments(t.ctx, { sandboxStepMs: 0 });
      const u = await signUp();
      const created = await inject(t.app, demoPayments.create, { token: u.token, body: { amount: 100, currency: 'usdttrc20' } });
      const id = created.data().paymentId as string;
      await inject(t.app, payments.sandboxPay, { token: u.token, params: { payment_id: id }, body: { amount: 60 } });
      const first = await t.mailbox.waitFor(u.email, 10_000, 'Deposit credited: 60.00 USDT');
      expect(first.text).toContain('TRON (TRC20)');
      await inject(t.app, payments.sandboxPay, { token: u.token, params: { payment_id: id }, body: { amount: 40 } });
      await t.mailbox.waitFor(u.email, 10_000, 'Deposit credited: 40.00 USDT');
      await inject(t.app, demoPayments.status, { token: u.token, body: { payment_id: id } });
      await new Promise((r) => setTimeout(r, 500));
      expect(t.mailbox.mails.filter((m) => m.to.includes(u.email) && m.subject.startsWith('Deposit credited'))).toHaveLength(2);
    });

    it('keeps a mail queued while the mail server is down and sends it later: the money is not rolled back', async () => {
      const u = await signUp();
      await fundIncome(t.db, u.id, 100);
      await t.db.updateTable('users').set({ email: 'nobody@unreachable.invalid' }).where('id', '=', u.id).execute();
      // The app's own mailer goes down, so whoever drains (the app's prompt drainer, polling every
      // 250 ms, or this test) fails the same way: swapping in a copy of the context raced the
      // drainer, which could lease the row between a reset and the test's drain.
      const working = t.ctx.mailer;
      t.ctx.mailer = { send: async () => Promise.reject(new Error('SMTP down')), close: () => undefined };
      const rowOf = () => t.db.selectFrom('mail_outbox').selectAll().where('user_id', '=', u.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      try {
        const res = await inject(t.app, withdrawals.create, {
          token: u.token,
          body: { amount_usd: 50, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' },
        });
        expect(res.statusCode).toBe(200);
        await vi.waitFor(
          async () => {
            await drainOutbox(t.ctx);
            expect((await rowOf()).last_error).toBe('SMTP down');
          },
          { timeout: 10_000, interval: 100 },
        );
        expect((await rowOf()).status).toBe('pending');
        expect((await inject(t.app, userApi.wallet, { token: u.token })).data().balance).toBe(50);
      } finally {
        t.ctx.mailer = working;
      }
      // Back up: the retry sends it.
      const row = await rowOf();
      await t.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: new Date(0) })
        .where('id', '=', row.id)
        .execute();
      await vi.waitFor(
        async () => {
          await drainOutbox(t.ctx);
          expect((await rowOf()).status).toBe('sent');
        },
        { timeout: 10_000, interval: 100 },
      );
    });
  });
});
