import { auth, staking, user } from '@app/core/contracts';
import { contractPath, type Contract, type DataOut, type InputOf } from '@app/core/contracts/define';
import { demoPayments, payments } from '@app/core/contracts/payments';
import type { Page } from 'playwright-core';
import { otpFrom, type E2EServer } from './harness';

export interface ApiUser {
  token: string;
  username: string;
  email: string;
  password: string;
}

async function call<T = Record<string, unknown>>(
  server: E2EServer,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: { success: boolean; message?: string; data?: T } }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { success: boolean; data?: T } };
}
export { call };

/**
 * Calls one endpoint of the running server from its contract, as the app's call() does: method and
 * path from the contract (no path literal), input typed by it, the answer's data typed by it.
 */
export async function api<C extends Contract>(
  server: E2EServer,
  c: C,
  input: Partial<InputOf<C>> & { token?: string } = {},
): Promise<{ status: number; json: { success: boolean; message?: string; data?: DataOut<C> } }> {
  // An undefined value is left out, as in the server tests' inject().
  const entries = Object.entries((input.query ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
  const query = entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : '';
  return call<DataOut<C>>(
    server,
    c.method,
    contractPath(c, input.params as Record<string, unknown> | undefined) + query,
    // As the app's call() does: no body on GET and DELETE.
    c.method === 'GET' || c.method === 'DELETE' ? undefined : (input.body ?? {}),
    input.token,
  );
}

let n = 0;
/** Signs up through the real API: register, read the OTP from the SMTP capture, verify. */
export async function signUp(server: E2EServer, name: string, referralId?: string): Promise<ApiUser> {
  const email = `${name.toLowerCase().replace(/\W/g, '')}${Date.now()}${n++}@example.test`;
  const password = 'Secret123!';
  const reg = await api(server, auth.register, { body: { name, email, password, ...(referralId ? { referral_id: referralId } : {}) } });
  if (!reg.json.data?.access_id) throw new Error(`register failed: ${JSON.stringify(reg.json)}`);
  const mail = await server.mailbox.waitFor(email);
  const ver = await api(server, auth.verifyOtp, { body: { access_id: reg.json.data.access_id, otp: otpFrom(mail.text) } });
  const token = ver.json.data?.token;
  if (!token) throw new Error(`verify-otp gave no token: ${JSON.stringify(ver.json)}`);
  const info = await api(server, user.info, { token });
  return { token, username: info.json.data!.username, email, password };
}

/** Deposits through the sandbox chain: create a payment, pay it in full, wait until it is credited. */
export async function deposit(server: E2EServer, user: ApiUser, amount: number): Promise<void> {
  const created = await api(server, demoPayments.create, { body: { amount, currency: 'usdtbsc' }, token: user.token });
  const id = created.json.data!.paymentId;
  await api(server, payments.sandboxPay, { params: { payment_id: id }, body: { amount }, token: user.token });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await api(server, demoPayments.status, { body: { payment_id: id }, token: user.token });
    if (s.json.data?.status === 'finished') return;
    if (Date.now() > deadline) throw new Error(`payment ${id} did not finish: ${JSON.stringify(s.json)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Deposits 1000, stakes all of it and runs the ROI job 12 days ahead: 60 USDT (0.5% a day) to
 * withdraw. Returns the job's run.
 */
export async function earnWithdrawableRoi(server: E2EServer, user: ApiUser): Promise<{ code: number; stdout: string; stderr: string }> {
  await deposit(server, user, 1000);
  await api(server, staking.create, { body: { amount_usd: 1000 }, token: user.token });
  return server.cli(['jobs:roi', '--date', isoDay(12)]);
}

/** Opens the app signed in as this user. */
export async function signIn(page: Page, user: ApiUser, path = '/dashboard', isAdmin = false): Promise<void> {
  // Any page of the origin holds its localStorage: a plain text file costs no app start, where a
  // page of the app (it used to be /privacy-policy) was a whole extra load for every sign-in.
  await page.goto('/robots.txt');
  await page.evaluate(
    ([t, a]) => {
      localStorage.setItem('auth_token', t!);
      localStorage.setItem('is_admin', a!);
    },
    [user.token, String(isAdmin)],
  );
  await page.goto(path);
}

export function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
