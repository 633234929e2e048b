import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { auth, fundIncome } from '../../test/factories';
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

  const post = (url: string, payload: unknown, token?: string) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: token ? auth(token) : {} });
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: auth(token) });

  async function signUp() {
    const e = email();
    const reg = await post('/api/auth/register', { name: 'Sam Secure', email: e, password: PASSWORD });
    const code = otpOf((await t.mailbox.waitFor(e)).text);
    const ver = await post('/api/auth/verify-otp', { access_id: reg.json().data.access_id, otp: code });
    expect(ver.statusCode, ver.body).toBe(200);
    const id = (await t.db.selectFrom('users').select('id').where('email', '=', e).executeTakeFirstOrThrow()).id;
    clock.advance(301_000);
    return { email: e, token: ver.json().data.token as string, id };
  }
  const login = (e: string, password = PASSWORD) => post('/api/auth/login', { email: e, password });

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
    const setup = await post('/api/user/2fa/setup', {}, token);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauth_url } = setup.json().data as { secret: string; otpauth_url: string };
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/USDT%20Stake:.*secret=/);
    expect(otpauth_url).toContain('algorithm=SHA1');
    lastStep = 0;
    const on = await post('/api/user/2fa/enable', { code: nextTotp(secret) }, token);
    expect(on.statusCode, on.body).toBe(200);
    return { secret, recovery: on.json().data.recovery_codes as string[] };
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
      const known = await post('/api/auth/forgot-password', { email: u.email });
      const unknown = await post('/api/auth/forgot-password', { email: 'nobody-here@example.test' });
      for (const r of [known, unknown]) {
        expect(r.statusCode).toBe(200);
        expect(r.json()).toMatchObject({ success: true, message: 'If an account exists for this e-mail, a reset code has been sent.' });
        expect(r.json().data.access_id).toMatch(/^[\w-]{43}$/);
      }
      const bad = await post('/api/auth/reset-password', { access_id: unknown.json().data.access_id, otp: '123456', password: 'NewPass123' });
      expect(bad.json()).toEqual({ success: false, message: 'Invalid or expired code' });
    });

    it('resets with the mailed code, signs every device out, mails a notice, and the new password works', async () => {
      const u = await signUp();
      const other = (await login(u.email)).json().data.token as string;
      const forgot = await post('/api/auth/forgot-password', { email: u.email.toUpperCase() });
      const mail = await t.mailbox.waitFor(u.email, 10_000, 'password reset code');
      expect(mail.html).toContain(otpOf(mail.text));
      const wrong = await post('/api/auth/reset-password', {
        access_id: forgot.json().data.access_id,
        otp: otpOf(mail.text) === '000000' ? '111111' : '000000',
        password: 'NewPass123',
      });
      expect(wrong.json()).toEqual({ success: false, message: 'Invalid or expired code' });
      const weak = await post('/api/auth/reset-password', { access_id: forgot.json().data.access_id, otp: otpOf(mail.text), password: 'short' });
      expect(weak.json().message).toBe('Password must be at least 6 characters');
      const res = await post('/api/auth/reset-password', { access_id: forgot.json().data.access_id, otp: otpOf(mail.text), password: 'NewPass123' });
      expect(res.json()).toEqual({ success: true, message: 'Password reset successfully' });
      expect((await get('/api/user/profile', u.token)).statusCode).toBe(401);
      expect((await get('/api/user/profile', other)).statusCode).toBe(401);
      expect((await login(u.email)).statusCode).toBe(401);
      expect((await login(u.email, 'NewPass123')).json().data.token).toBeTruthy();
      const notice = await t.mailbox.waitFor(u.email, 10_000, 'Your password was reset');
      expect(notice.text).not.toMatch(/\b\d{6}\b/);
      // The code works once.
      const again = await post('/api/auth/reset-password', { access_id: forgot.json().data.access_id, otp: otpOf(mail.text), password: 'Other123x' });
      expect(again.json().message).toBe('Invalid or expired code');
    });

    it('does not accept a reset code at verify-otp, nor a sign-up code at reset-password', async () => {
      const u = await signUp();
      const forgot = await post('/api/auth/forgot-password', { email: u.email });
      const code = otpOf((await t.mailbox.waitFor(u.email, 10_000, 'password reset code')).text);
      const asLogin = await post('/api/auth/verify-otp', { access_id: forgot.json().data.access_id, otp: code });
      expect(asLogin.json()).toEqual({ success: false, message: 'Invalid or expired code' });
      expect(asLogin.json().data).toBeUndefined();
    });
  });

  describe('change of password', () => {
    it('refuses a wrong current password with the field named', async () => {
      const u = await signUp();
      const res = await post('/api/user/change-password', { current_password: 'Wrong1234', new_password: 'NewPass123' }, u.token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Current password is incorrect', errors: { current_password: 'Current password is incorrect' } });
    });

    it('changes it, keeps the calling session, revokes the others and mails a notice', async () => {
      const u = await signUp();
      const other = (await login(u.email)).json().data.token as string;
      const res = await post('/api/user/change-password', { current_password: PASSWORD, new_password: 'Changed123' }, u.token);
      expect(res.json()).toEqual({ success: true, message: 'Password changed successfully' });
      expect((await get('/api/user/profile', u.token)).statusCode).toBe(200);
      expect((await get('/api/user/profile', other)).statusCode).toBe(401);
      expect((await login(u.email, 'Changed123')).json().data.token).toBeTruthy();
      const notice = await t.mailbox.waitFor(u.email, 10_000, 'Your password was changed');
      expect(notice.html).toContain('USDT Stake');
      expect(notice.text).not.toContain('Changed123');
    });
  });

  describe('two-factor authentication', () => {
    it('sets up without enabling, refuses a wrong code, enables with a right one and gives 10 recovery codes once', async () => {
      const u = await signUp();
      const setup = await post('/api/user/2fa/setup', {}, u.token);
      expect((await get('/api/user/security', u.token)).json().data.two_factor_enabled).toBe(false);
      const stored = await t.db.selectFrom('users').select('totp_secret_enc').where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(stored.totp_secret_enc).not.toContain(setup.json().data.secret);
      const wrong = await post('/api/user/2fa/enable', { code: '000000' }, u.token);
      expect(wrong.json()).toMatchObject({ success: false, message: 'Invalid two-factor code' });
      lastStep = 0;
      const on = await post('/api/user/2fa/enable', { code: nextTotp(setup.json().data.secret) }, u.token);
      expect(on.json().data.recovery_codes).toHaveLength(10);
      expect(new Set(on.json().data.recovery_codes).size).toBe(10);
      expect((await get('/api/user/security', u.token)).json().data.two_factor_enabled).toBe(true);
      await t.mailbox.waitFor(u.email, 10_000, 'Two-factor authentication is on');
      // Set-up again while on is refused.
      expect((await post('/api/user/2fa/setup', {}, u.token)).statusCode).toBe(409);
    });

    it('asks for the second step at login; a TOTP gives the token and the same step is refused the second time', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      const first = await login(u.email);
      expect(first.json()).toMatchObject({ success: true, data: { requires_2fa: true } });
      expect(first.json().data.token).toBeUndefined();
      const code = nextTotp(secret);
      const ok = await post('/api/auth/login/2fa', { challenge_id: first.json().data.challenge_id, code });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.token).toBeTruthy();
      // Replay: the same code on a fresh challenge.
      const second = await login(u.email);
      const replay = await post('/api/auth/login/2fa', { challenge_id: second.json().data.challenge_id, code });
      expect(replay.json()).toMatchObject({ success: false, message: 'Invalid two-factor code' });
      // The used challenge is dead.
      expect((await post('/api/auth/login/2fa', { challenge_id: first.json().data.challenge_id, code: nextTotp(secret) })).json().message).toBe(
        'Invalid or expired code',
      );
    });

    it('lets a recovery code sign in once, and a challenge dies after 5 wrong tries', async () => {
      const u = await signUp();
      const { secret, recovery } = await enable2fa(u.token);
      const c1 = await login(u.email);
      const byRecovery = await post('/api/auth/login/2fa', { challenge_id: c1.json().data.challenge_id, code: recovery[0]!.toUpperCase() });
      expect(byRecovery.json().data.token).toBeTruthy();
      const c2 = await login(u.email);
      expect((await post('/api/auth/login/2fa', { challenge_id: c2.json().data.challenge_id, code: recovery[0] })).json().message).toBe(
        'Invalid two-factor code',
      );
      const c3 = await login(u.email);
      for (let i = 0; i < 5; i++) await post('/api/auth/login/2fa', { challenge_id: c3.json().data.challenge_id, code: '000000' });
      expect((await post('/api/auth/login/2fa', { challenge_id: c3.json().data.challenge_id, code: nextTotp(secret) })).json().message).toBe(
        'Invalid or expired code',
      );
    });

    it('needs the code for a withdrawal: missing and wrong are refused with nothing debited', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      await fundIncome(t.db, u.id, 100);
      const body = { amount_usd: 50, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' };
      const missing = await post('/api/withdraw/create', body, u.token);
      expect(missing.json()).toEqual({ success: false, message: 'Two-factor code is required', errors: { totp_code: 'Two-factor code is required' } });
      const wrong = await post('/api/withdraw/create', { ...body, totp_code: '000000' }, u.token);
      expect(wrong.json()).toEqual({ success: false, message: 'Invalid two-factor code', errors: { totp_code: 'Invalid two-factor code' } });
      expect((await get('/api/user/wallet', u.token)).json().data.balance).toBe(100);
      const ok = await post('/api/withdraw/create', { ...body, totp_code: nextTotp(secret) }, u.token);
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await get('/api/user/wallet', u.token)).json().data.balance).toBe(50);
    });

    it('disables with a code, mails it, and logins are one step again', async () => {
      const u = await signUp();
      const { recovery } = await enable2fa(u.token);
      expect((await post('/api/user/2fa/disable', { code: '000000' }, u.token)).json().message).toBe('Invalid two-factor code');
      const off = await post('/api/user/2fa/disable', { code: recovery[3] }, u.token);
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
      const ver = await post('/api/auth/verify-otp', { access_id: first.json().data.access_id, otp: code });
      expect(ver.json().data.token).toBeUndefined();
      expect(ver.json().data).toMatchObject({ requires_2fa: true });
      const done = await post('/api/auth/login/2fa', { challenge_id: ver.json().data.challenge_id, code: nextTotp(secret) });
      expect(done.json().data.token).toBeTruthy();
    });

    it('refuses every code of the account after 10 wrong ones in an hour, even the right one, and gives room again an hour later', async () => {
      const u = await signUp();
      const { secret } = await enable2fa(u.token);
      await fundIncome(t.db, u.id, 100);
      const body = { amount_usd: 10, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' };
      // The guess budget (guess-budget.ts) spans every code: withdrawal, login step, turning 2FA off.
      for (let i = 0; i < 4; i++)
        expect((await post('/api/withdraw/create', { ...body, totp_code: String(100000 + i) }, u.token)).json().message).toBe('Invalid two-factor code');
      for (let i = 0; i < 3; i++) {
        const c = await login(u.email);
        expect((await post('/api/auth/login/2fa', { challenge_id: c.json().data.challenge_id, code: String(200000 + i) })).json().message).toBe(
          'Invalid two-factor code',
        );
      }
      for (let i = 0; i < 3; i++)
        expect((await post('/api/user/2fa/disable', { code: String(300000 + i) }, u.token)).json().message).toBe('Invalid two-factor code');
      const locked = await post('/api/withdraw/create', { ...body, totp_code: nextTotp(secret) }, u.token);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe('Too many attempts. Try again later.');
      const c = await login(u.email);
      expect((await post('/api/auth/login/2fa', { challenge_id: c.json().data.challenge_id, code: nextTotp(secret) })).statusCode).toBe(429);
      expect((await post('/api/user/2fa/disable', { code: nextTotp(secret) }, u.token)).statusCode).toBe(429);
      expect((await get('/api/user/wallet', u.token)).json().data.balance).toBe(100);
      clock.advance(3_601_000);
      expect((await post('/api/withdraw/create', { ...body, totp_code: nextTotp(secret) }, u.token)).statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it("lists the sessions with the current one marked, revokes another, and 404s for an id that is not the caller's", async () => {
      const u = await signUp();
      const other = await login(u.email);
      const mine = await get('/api/user/security', u.token);
      expect(mine.json().data.email).toBe(u.email);
      const sessions = mine.json().data.sessions as { id: string; current: boolean; created_at: string; ip: string | null; user_agent: string | null }[];
      expect(sessions.length).toBe(2);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      expect(sessions[0]).toHaveProperty('last_used_at');
      const stranger = await signUp();
      const strangerSession = (await get('/api/user/security', stranger.token)).json().data.sessions[0].id as string;
      const foreign = await t.app.inject({ method: 'DELETE', url: `/api/user/sessions/${strangerSession}`, headers: auth(u.token) });
      expect(foreign.statusCode).toBe(404);
      expect((await get('/api/user/profile', stranger.token)).statusCode).toBe(200);
      const target = sessions.find((s) => !s.current)!;
      const revoke = await t.app.inject({ method: 'DELETE', url: `/api/user/sessions/${target.id}`, headers: auth(u.token) });
      expect(revoke.json()).toEqual({ success: true, message: 'Session revoked' });
      expect((await get('/api/user/profile', other.json().data.token)).statusCode).toBe(401);
      const bad = await t.app.inject({ method: 'DELETE', url: '/api/user/sessions/abc', headers: auth(u.token) });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('money mail', () => {
    it('mails withdrawal requested, completed (with the tx hash) and rejected (with the reason), text and HTML', async () => {
      const u = await signUp();
      await fundIncome(t.db, u.id, 200);
      const body = { amount_usd: 50, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' };
      const w1 = await post('/api/withdraw/create', body, u.token);
      const requested = await t.mailbox.waitFor(u.email, 10_000, 'Withdrawal requested');
      expect(requested.text).toContain('50.00 USDT');
      expect(requested.text).toContain('47.50 USDT');
      expect(requested.html).toContain(ADDRESS);
      await completeWithdrawal(t.db, BigInt(w1.json().data.id), { txHash: '0xabc123def' });
      const paid = await t.mailbox.waitFor(u.email, 10_000, 'Withdrawal paid');
      expect(paid.text).toContain('0xabc123def');
      const w2 = await post('/api/withdraw/create', body, u.token);
      await rejectWithdrawal(t.db, BigInt(w2.json().data.id), { reason: 'Address on a sanctions list' });
      const rejected = await t.mailbox.waitFor(u.email, 10_000, 'Withdrawal rejected');
      expect(rejected.text).toContain('Address on a sanctions list');
    });

    it('mails a credited deposit with the amount and network, once per credit', async () => {
      configurePayments(t.ctx, { sandboxStepMs: 0 });
      const u = await signUp();
      const created = await post('/api/demo-payments/create', { amount: 100, currency: 'usdttrc20' }, u.token);
      const id = created.json().data.paymentId as string;
      await post(`/api/sandbox/payments/${id}/pay`, { amount: 60 }, u.token);
      const first = await t.mailbox.waitFor(u.email, 10_000, 'Deposit credited: 60.00 USDT');
      expect(first.text).toContain('TRON (TRC20)');
      await post(`/api/sandbox/payments/${id}/pay`, { amount: 40 }, u.token);
      await t.mailbox.waitFor(u.email, 10_000, 'Deposit credited: 40.00 USDT');
      await post('/api/demo-payments/status', { payment_id: id }, u.token);
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
        const res = await post('/api/withdraw/create', { amount_usd: 50, network: 'BSC', wallet_address: ADDRESS, token: 'USDT' }, u.token);
        expect(res.statusCode).toBe(200);
        await vi.waitFor(
          async () => {
            await drainOutbox(t.ctx);
            expect((await rowOf()).last_error).toBe('SMTP down');
          },
          { timeout: 10_000, interval: 100 },
        );
        expect((await rowOf()).status).toBe('pending');
        expect((await get('/api/user/wallet', u.token)).json().data.balance).toBe(50);
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
