import { CODE_DELAYED_MESSAGE } from '@app/core';
import { auth as authApi } from '@app/core/contracts/auth';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailsOf, inject, otpOf } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/app';
import { startFaultyMailbox } from '../../test/faulty-mailbox';
import { drainOutbox } from '../mail/outbox';

const email = emailsOf('maillate');
const good = { name: 'Alice Example', password: 'Secret123' };
const LATE = { success: true, message: `Registration successful. ${CODE_DELAYED_MESSAGE}`, data: { access_id: expect.any(String), code_sent: false } };

/** A test app whose mail goes to a faulty mailbox in the given mode. */
function useFaultyMail(mode: Parameters<typeof startFaultyMailbox>[0], env: Record<string, string>) {
  const t = {} as TestApp & { smtp: Awaited<ReturnType<typeof startFaultyMailbox>> };
  beforeAll(async () => {
    const smtp = await startFaultyMailbox(mode, { slowMs: 3_500 });
    Object.assign(t, { smtp }, await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000', SMTP_URL: smtp.url, ...env }));
  });
  afterAll(async () => {
    await t.close?.();
    await t.smtp?.close();
  });
  return t;
}

/** The outbox's retries are due now (their back-off is 30 s and more): what the clock would do. */
const dueNow = (t: TestApp) => sql`update mail_outbox set next_attempt_at = now() where status = 'pending'`.execute(t.db);

/**
 * Issue 47, item 1: a second sign-up with the same e-mail while the first one's code still waits
 * in the outbox (the mail server is down) replaces the unverified account (the mailbox wins) and
 * carries its code; the queued mail goes with it to the new account, so the answer says the same
 * `code_sent: false`, and once mail is back exactly one code mail arrives, which verifies the new
 * account with the second access_id.
 */
describe('signing up again while the first code is still queued', () => {
  const t = useFaultyMail('refuse', { SMTP_TIMEOUT_SECONDS: '2' });

  it('answers code_sent: false again, and the one code mail goes out when mail is back and verifies with the second access_id', async () => {
    const e = email();
    const first = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    expect(first.json()).toEqual(LATE);
    const second = await inject(t.app, authApi.register, { body: { ...good, name: 'Alice Again', email: e } });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual(LATE);

    t.smtp.setMode('accept');
    await dueNow(t);
    expect(await drainOutbox(t.ctx)).toEqual({ sent: 1, failed: 0 });
    await dueNow(t);
    expect(await drainOutbox(t.ctx)).toEqual({ sent: 0, failed: 0 });
    const mails = t.smtp.mails.filter((m) => m.to.includes(e));
    expect(mails).toHaveLength(1);
    const code = otpOf(mails[0]!.text);
    // The first access_id died with the account it was for.
    const old = await inject(t.app, authApi.verifyOtp, { body: { access_id: first.data().access_id, otp: code } });
    expect(old.statusCode).toBe(400);
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: second.data().access_id, otp: code } });
    expect(ver.statusCode, ver.body).toBe(200);
    expect(ver.data().token).toEqual(expect.any(String));
    const user = await t.db.selectFrom('users').select(['id', 'name', 'email_verified_at']).where('email', '=', e).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: 'Alice Again', email_verified_at: expect.any(Date) });
    expect(await t.db.selectFrom('mail_outbox').select(['user_id', 'status']).where('to_email', '=', e).execute()).toEqual([
      { user_id: user.id, status: 'sent' },
    ]);
  });

  it('a sign-up again whose carried code did go out answers as the first did (no code_sent)', async () => {
    t.smtp.setMode('accept');
    const e = email();
    const first = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    expect(first.data().code_sent).toBeUndefined();
    const second = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    expect(second.json()).toEqual({ success: true, message: 'Registration successful. Please verify your email.', data: { access_id: expect.any(String) } });
    const mails = t.smtp.mails.filter((m) => m.to.includes(e));
    expect(mails).toHaveLength(1);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: second.data().access_id, otp: otpOf(mails[0]!.text) } })).statusCode).toBe(200);
  });
});

/**
 * Issue 47, item 2: a mail server that hangs does not hold a sign-up for the SMTP timeout. The
 * answer comes within CODE_MAIL_WAIT_MS with `code_sent: false`; the request's send holds the
 * row's lease meanwhile, so the drainer never sends it beside it: a late success is the one mail,
 * a send that gives up is retried by the outbox.
 */
describe('a mail server that hangs', () => {
  const t = useFaultyMail('hang', { SMTP_TIMEOUT_SECONDS: '5' });
  const row = (e: string) => t.db.selectFrom('mail_outbox').select(['status', 'attempts', 'last_error']).where('to_email', '=', e).executeTakeFirstOrThrow();

  it('answers a sign-up at once with code_sent: false; the code goes out once when the server answers again', async () => {
    const e = email();
    const started = Date.now();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    const took = Date.now() - started;
    expect(reg.json()).toEqual(LATE);
    expect(took).toBeLessThan(3_000);
    // The request's send still holds the row's lease (its next try is the lease's end): the drainer leaves it alone.
    expect(await drainOutbox(t.ctx)).toEqual({ sent: 0, failed: 0 });
    t.smtp.setMode('accept');
    // The hung send gives up at the SMTP timeout and leaves the row to the outbox.
    await expect.poll(async () => (await row(e)).last_error, { timeout: 10_000, interval: 250 }).toMatch(/timeout|Greeting never received|took longer/i);
    expect(t.smtp.mails.filter((m) => m.to.includes(e))).toHaveLength(0);
    await dueNow(t);
    expect(await drainOutbox(t.ctx)).toEqual({ sent: 1, failed: 0 });
    const mails = t.smtp.mails.filter((m) => m.to.includes(e));
    expect(mails).toHaveLength(1);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: reg.data().access_id, otp: otpOf(mails[0]!.text) } })).statusCode).toBe(200);
  }, 30_000);

  it('a slow server that takes the code after the answer gets it once: the drainer never sends it beside the late send', async () => {
    t.smtp.setMode('slow'); // answers each mail after 3.5 s
    const e = email();
    const started = Date.now();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(reg.json()).toEqual(LATE);
    // Leased by the request's send: the drainer leaves it alone.
    expect(await drainOutbox(t.ctx)).toEqual({ sent: 0, failed: 0 });
    await expect.poll(async () => (await row(e)).status, { timeout: 10_000, interval: 250 }).toBe('sent');
    await dueNow(t);
    expect(await drainOutbox(t.ctx)).toEqual({ sent: 0, failed: 0 });
    const mails = t.smtp.mails.filter((m) => m.to.includes(e));
    expect(mails).toHaveLength(1);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: reg.data().access_id, otp: otpOf(mails[0]!.text) } })).statusCode).toBe(200);
  }, 30_000);
});
