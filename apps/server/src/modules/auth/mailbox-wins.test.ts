import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { emailsOf, inject, otpOf } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { mailsTo, nthMail } from '../../test/accounts';
import { createUser } from '../../test/factories';

/**
 * Issue 29, finding 5: an unverified sign-up squatted a victim's e-mail (409 at the owner's sign-up,
 * the squatter's sponsor and name, a greeting with the squatter's text in the owner's mailbox). Now
 * the mailbox wins (server design, section 9). Failed before the fix (409, and the name in the mail).
 */
describe('the mailbox wins over an unverified sign-up', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000' });
  const email = emailsOf('squat');
  const SQUATTER = 'Mallory Visit evil.example';

  it("the owner signs up over the squatter's account with the code mailed to the address: the owner's password, name and sponsor, none of the squatter's", async () => {
    const sponsor = await createUser(t.db, t.ctx.secret);
    const victim = email();
    const squat = await inject(t.app, authApi.register, { body: { name: SQUATTER, email: victim, password: 'Squat1234', referral_id: sponsor.username } });
    expect(squat.statusCode, squat.body).toBe(200);
    const greeting = await nthMail(t, victim, 1, 'verification code');
    expect(greeting.text).not.toContain('Mallory');
    expect(greeting.html).not.toContain('Mallory');

    const mine = await inject(t.app, authApi.register, { body: { name: 'Victor Owner', email: victim, password: 'Victim123' } });
    expect(mine.statusCode, mine.body).toBe(200);
    // Inside the 300 s wait no second code is mailed: the one already in the mailbox is the code.
    const code = otpOf(mailsTo(t, victim, 'verification code').at(-1)!.text);
    expect((await inject(t.app, authApi.verifyOtp, { body: { access_id: squat.data().access_id, otp: code } })).json().message).toBe('Invalid or expired code');
    const ver = await inject(t.app, authApi.verifyOtp, { body: { access_id: mine.data().access_id, otp: code } });
    expect(ver.statusCode, ver.body).toBe(200);
    expect(ver.data().token).toBeTruthy();

    const row = await t.db.selectFrom('users').select(['name', 'referrer_id', 'email_verified_at']).where('email', '=', victim).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Victor Owner', referrer_id: null });
    expect(row.email_verified_at).not.toBeNull();
    expect(await t.db.selectFrom('users').select('id').where('referrer_id', '=', sponsor.id).execute()).toEqual([]);
    expect((await inject(t.app, authApi.login, { body: { email: victim, password: 'Squat1234' } })).statusCode).toBe(401);
    expect((await inject(t.app, authApi.login, { body: { email: victim, password: 'Victim123' } })).data().token).toBeTruthy();
    // Once proven, the address is taken: the squatter gets the spec's 409.
    expect((await inject(t.app, authApi.register, { body: { name: SQUATTER, email: victim, password: 'Squat1234' } })).statusCode).toBe(409);
  });

  it('the verification mail greets nobody by a chosen name', async () => {
    const e = email();
    await inject(t.app, authApi.register, { body: { name: 'Click http://evil.example now', email: e, password: 'Secret123' } });
    const mail = await nthMail(t, e, 1, 'verification code');
    expect(mail.text).not.toMatch(/evil|Click/);
    expect(mail.text).toMatch(/^Hello there,/);
  });
});
