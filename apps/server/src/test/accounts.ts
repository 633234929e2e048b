import { expect } from 'vitest';
import type { TestApp } from './app';
import { otpOf, poster } from './api';
import { auth } from './factories';
import { totpAt } from '../modules/auth/totp';

export const PASSWORD = 'Secret123';
const ACCESS_ID = /^[A-Za-z0-9_-]{43}$/;

type Res = Awaited<ReturnType<ReturnType<typeof poster>>>;

/** What a caller sees of an answer: status, message, and the data with access ids as their shape. */
export function seen(res: Res) {
  const body = res.json() as { message?: string; data?: Record<string, unknown> };
  const data = body.data && Object.fromEntries(Object.entries(body.data).map(([k, v]) => [k, typeof v === 'string' && ACCESS_ID.test(v) ? '<access_id>' : v]));
  return { status: res.statusCode, message: body.message, data };
}

/** The mails that reached `e`, those whose subject contains `subject` when given. */
export const mailsTo = (t: TestApp, e: string, subject?: string) =>
  t.mailbox.mails.filter((m) => m.to.toLowerCase().includes(e.toLowerCase()) && (!subject || m.subject.includes(subject)));

/** Waits until `n` mails (of that subject) reached `e` and returns the n-th. */
export async function nthMail(t: TestApp, e: string, n: number, subject?: string) {
  for (let i = 0; i < 200 && mailsTo(t, e, subject).length < n; i++)
    await t.mailbox.waitFor(e, 10_000, subject).then(() => new Promise((r) => setTimeout(r, 25)));
  const mail = mailsTo(t, e, subject)[n - 1];
  if (!mail) throw new Error(`no mail ${n} to ${e}`);
  return mail;
}

/** Signs up through the API with the mailed code: a verified password account and its token. */
export async function verifiedUser(t: TestApp, e: string, name = 'Budget Example') {
  const post = poster(t);
  const reg = await post('/api/auth/register', { name, email: e, password: PASSWORD });
  expect(reg.statusCode, reg.body).toBe(200);
  const code = otpOf((await nthMail(t, e, 1, 'verification code')).text);
  const ver = await post('/api/auth/verify-otp', { access_id: reg.json().data.access_id, otp: code });
  expect(ver.statusCode, ver.body).toBe(200);
  const id = (await t.db.selectFrom('users').select('id').where('email', '=', e).executeTakeFirstOrThrow()).id;
  return { email: e, id, token: ver.json().data.token as string };
}

/** Turns 2FA on for the token's user; `code(n)` is the TOTP n steps after the server's now. */
export async function withTwoFactor(t: TestApp, token: string, now: () => Date = () => new Date()) {
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload, headers: auth(token) });
  const { secret } = (await post('/api/user/2fa/setup', {})).json().data as { secret: string };
  const code = (steps = 0) => totpAt(secret, now().getTime() + steps * 30_000);
  // A step boundary passing between making the code and the server checking it turns step -1
  // into step -2, which no server accepts (CI failed once on a loaded machine): make it again then.
  const step = () => Math.floor(now().getTime() / 30_000);
  let on;
  for (let tries = 0; ; tries++) {
    const before = step();
    on = await post('/api/user/2fa/enable', { code: code(-1) });
    if (on.statusCode === 200 || step() === before || tries > 0) break;
  }
  expect(on.statusCode, on.body).toBe(200);
  /** Six digits that are none of the codes the server accepts now (steps -1, 0, +1). */
  const wrong = (i: number) => {
    const valid = new Set([code(-1), code(0), code(1)]);
    for (let n = 100_000 + i * 7919; ; n++) if (!valid.has(String(n % 1_000_000).padStart(6, '0'))) return String(n % 1_000_000).padStart(6, '0');
  };
  return { secret, code, wrong, recovery: on.json().data.recovery_codes as string[] };
}
