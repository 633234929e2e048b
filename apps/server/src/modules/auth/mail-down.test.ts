import { CODE_DELAYED_MESSAGE } from '@app/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { useClock } from '../../test/clock';
import { emailsOf, inject, otpOf } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { startFaultyMailbox } from '../../test/faulty-mailbox';
import { drainOutbox } from '../mail/outbox';

const email = emailsOf('maildown');
const good = { name: 'Alice Example', password: 'Secret123' };

/**
 * A sign-up while the mail server refuses (issue 30, item 3): the account is created and the
 * answer says so, with the access_id and a plain "the code could not be sent yet" (never a 500),
 * and the code goes out through the outbox once mail works again; resend works; a code that died
 * meanwhile is never sent.
 */
describe('sign-up while the mail server refuses', () => {
  const t = {} as TestApp;
  let smtp: Awaited<ReturnType<typeof startFaultyMailbox>>;
  beforeAll(async () => {
    smtp = await startFaultyMailbox('refuse');
    Object.assign(t, await createTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000', SMTP_URL: smtp.url, SMTP_TIMEOUT_SECONDS: '2' }));
  });
  // The 300 s wait between code mails passes on the app's clock, not by waiting.
  const clock = useClock(t);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  /** The outbox's retry is due now (its back-off is 30 s and more): what the clock would do. */
  const dueNow = () => sql`update mail_outbox set next_attempt_at = now() where status = 'pending'`.execute(t.db);

  it('answers 200 with the access_id and says the code is late; the code arrives once mail is back and verifies', async () => {
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    expect(reg.statusCode, reg.body).toBe(200);
    expect(reg.json()).toEqual({
      success: true,
      message: `Registration successful. ${CODE_DELAYED_MESSAGE}`,
      data: { access_id: expect.any(String), code_sent: false },
    });
    const accessId = reg.data().access_id as string;
    // The queued row keeps the code sealed, never in clear.
    const queued = await t.db.selectFrom('mail_outbox').select(['status', 'payload', 'kind']).where('to_email', '=', e).execute();
    expect(queued).toMatchObject([{ status: 'pending', kind: 'otp_verify' }]);
    expect(JSON.stringify(queued[0]!.payload)).not.toMatch(/\b\d{6}\b/);

    // Mail back: the outbox sends the code, and it verifies.
    smtp.setMode('accept');
    await dueNow();
    expect(await drainOutbox(t.ctx)).toMatchObject({ sent: 1 });
    const mail = smtp.mails.find((m) => m.to.includes(e))!;
    expect(mail.subject).toBe('Your verification code');
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: accessId, otp: otpOf(mail.text) } });
    expect(ver.statusCode, ver.body).toBe(200);
    expect(ver.data().token).toEqual(expect.any(String));
    const row = await t.db.selectFrom('mail_outbox').select(['status', 'payload']).where('to_email', '=', e).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'sent', payload: {} });
  });

  it('resend works while mail is down and after; a code replaced meanwhile is never sent', async () => {
    smtp.setMode('refuse');
    const e = email();
    const reg = await inject(t.app, authApi.register, { body: { ...good, email: e } });
    expect(reg.data().code_sent).toBe(false);
    clock.advance(301_000);
    const again = await inject(t.app, authApi.resendOtp, { body: { access_id: reg.data().access_id } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ success: true, message: CODE_DELAYED_MESSAGE, data: { access_id: expect.any(String), code_sent: false } });

    smtp.setMode('accept');
    clock.advance(301_000);
    const third = await inject(t.app, authApi.resendOtp, { body: { access_id: again.data().access_id } });
    expect(third.json()).toEqual({ success: true, message: 'OTP resent successfully', data: { access_id: expect.any(String) } });
    // The two queued codes are dead (each resend replaced the code): neither is sent.
    await dueNow();
    await drainOutbox(t.ctx);
    const rows = await t.db.selectFrom('mail_outbox').select(['status']).where('to_email', '=', e).orderBy('id').execute();
    expect(rows.map((r) => r.status)).toEqual(['expired', 'expired', 'sent']);
    const mails = smtp.mails.filter((m) => m.to.includes(e));
    expect(mails).toHaveLength(1);
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: third.data().access_id, otp: otpOf(mails[0]!.text) } });
    expect(ver.statusCode, ver.body).toBe(200);
  });

  it('an unverified sign-in while mail is down says so too, and never answers 500', async () => {
    smtp.setMode('accept');
    const e = email();
    expect((await inject(t.app, authApi.register, { body: { ...good, email: e } })).data().code_sent).toBeUndefined();
    smtp.setMode('refuse');
    clock.advance(301_000);
    const login = await inject(t.app, authApi.login, { body: { email: e, password: good.password } });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toEqual({ success: true, message: CODE_DELAYED_MESSAGE, data: { access_id: expect.any(String), code_sent: false } });
  });
});
