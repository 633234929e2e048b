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

let n = 0;
/** Signs up through the real API: register, read the OTP from the SMTP capture, verify. */
export async function signUp(server: E2EServer, name: string, referralId?: string): Promise<ApiUser> {
  const email = `${name.toLowerCase().replace(/\W/g, '')}${Date.now()}${n++}@example.test`;
  const password = 'Secret123!';
  const reg = await call<{ access_id: string }>(server, 'POST', '/api/auth/register', {
    name,
    email,
    password,
    ...(referralId ? { referral_id: referralId } : {}),
  });
  if (!reg.json.data?.access_id) throw new Error(`register failed: ${JSON.stringify(reg.json)}`);
  const mail = await server.mailbox.waitFor(email);
  const ver = await call<{ token: string }>(server, 'POST', '/api/auth/verify-otp', { access_id: reg.json.data.access_id, otp: otpFrom(mail.text) });
  const token = ver.json.data!.token;
  const info = await call<{ username: string }>(server, 'GET', '/api/user/get-info', undefined, token);
  return { token, username: info.json.data!.username, email, password };
}

/** Deposits through the sandbox chain: create a payment, pay it in full, wait until it is credited. */
export async function deposit(server: E2EServer, user: ApiUser, amount: number): Promise<void> {
  const created = await call<{ paymentId: string }>(server, 'POST', '/api/demo-payments/create', { amount, currency: 'usdtbsc' }, user.token);
  const id = created.json.data!.paymentId;
  await call(server, 'POST', `/api/sandbox/payments/${id}/pay`, { amount }, user.token);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await call<{ status: string }>(server, 'POST', '/api/demo-payments/status', { payment_id: id }, user.token);
    if (s.json.data?.status === 'finished') return;
    if (Date.now() > deadline) throw new Error(`payment ${id} did not finish: ${JSON.stringify(s.json)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Opens the app signed in as this user. */
export async function signIn(page: Page, user: ApiUser, path = '/dashboard', isAdmin = false): Promise<void> {
  await page.goto('/privacy-policy');
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
