import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { emailsOf, inject } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { PASSWORD, seen, verifiedUser } from '../../test/accounts';
import { useClock } from '../../test/clock';

/**
 * Issue 29, finding 2: what happened to earlier access ids told a right password in the login
 * back-off from a wrong one, and a registered e-mail from an unknown one at forgot-password. Each
 * walk below is what an attacker can do; it must read the same whatever the password or e-mail.
 * Both tests failed before "one challenge owner per e-mail" (see the session note).
 */
describe('answers that tell nothing (issue 29, finding 2)', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000' });
  const clock = useClock(t);
  const email = emailsOf('oracle');
  const login = (e: string, password: string) => inject(t.app, authApi.login, { body: { email: e, password } });
  const resend = (id: string) => inject(t.app, authApi.resendOtp, { body: { access_id: id } });
  const verify = (id: string) => inject(t.app, authApi.verifyOtp, { body: { access_id: id, otp: '000000' } });
  const backOff = async (e: string) => {
    for (let i = 0; i < 10; i++) expect((await login(e, `WrongPass${i}`)).statusCode).toBe(401);
  };

  /** In back-off: a wrong password, then `second`, then everything that can be asked of both ids. */
  async function loginWalk(e: string, second: string) {
    const out = [];
    const l1 = await login(e, 'WrongPassA1');
    const l2 = await login(e, second);
    out.push(seen(l1), seen(l2));
    const [id1, id2] = [l1.json().data.access_id as string, l2.json().data.access_id as string];
    out.push(seen(await resend(id1)), seen(await verify(id1)), seen(await resend(id2)));
    clock.advance(301_000);
    out.push(seen(await resend(id1)));
    const r = await resend(id2);
    out.push(seen(r), seen(await verify(id2)), seen(await verify(r.json().data?.access_id as string)));
    const l3 = await login(e, 'WrongPassA3');
    out.push(seen(l3), seen(await resend(r.json().data?.access_id as string)), seen(await verify(l3.json().data.access_id as string)));
    clock.advance(301_000);
    return out;
  }

  it('login back-off: earlier ids answer the same whether the second password was right or wrong, and for an unknown e-mail', async () => {
    const right = await verifiedUser(t, email());
    const wrong = await verifiedUser(t, email());
    const unknown = email();
    for (const e of [right.email, wrong.email, unknown]) await backOff(e);
    const real = await loginWalk(right.email, PASSWORD);
    expect(real[1]).toEqual({ status: 200, message: 'We sent a code to your e-mail. Enter it to continue.', data: { access_id: '<access_id>' } });
    expect(await loginWalk(wrong.email, 'WrongPassA2')).toEqual(real);
    expect(await loginWalk(unknown, 'WrongPassA2')).toEqual(real);
  });

  it("login back-off: a wrong password after the right one ends the right one's id, as any new challenge of the e-mail does", async () => {
    const walk = async (e: string, first: string) => {
      const a = await login(e, first);
      await login(e, 'WrongPassC2');
      return [seen(await verify(a.json().data.access_id as string)), seen(await resend(a.json().data.access_id as string))];
    };
    const right = await verifiedUser(t, email());
    const wrong = await verifiedUser(t, email());
    for (const e of [right.email, wrong.email]) await backOff(e);
    const real = await walk(right.email, PASSWORD);
    expect(real[0]).toEqual({ status: 400, message: 'Invalid or expired code', data: undefined });
    expect(await walk(wrong.email, 'WrongPassC1')).toEqual(real);
  });

  /** forgot-password, then the back-off, then a login: what the forgot-password id answers after. */
  async function forgotWalk(e: string) {
    const out = [];
    const f = await inject(t.app, authApi.forgotPassword, { body: { email: e } });
    out.push(seen(f));
    const id = f.data().access_id as string;
    await backOff(e);
    const l = await login(e, 'WrongPassB1');
    out.push(
      seen(l),
      seen(await resend(id)),
      seen(await inject(t.app, authApi.resetPassword, { body: { access_id: id, otp: '000000', password: 'NewPass123' } })),
    );
    clock.advance(301_000);
    out.push(seen(await resend(id)), seen(await resend(l.json().data.access_id as string)));
    return out;
  }

  it('forgot-password: the id of a registered e-mail and of an unknown one answer the same after a login in back-off', async () => {
    const known = await verifiedUser(t, email());
    const real = await forgotWalk(known.email);
    expect(await forgotWalk(email())).toEqual(real);
  });
});
