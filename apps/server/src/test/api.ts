import { contractPath, type Contract, type DataOut, type InputOf } from '@app/core/contracts/define';
import { withdrawals } from '@app/core/contracts/money';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from './app';
import { auth, type TestUser } from './factories';

/**
 * Calls one endpoint of the app from its contract, as the browser's call() does: method and path
 * come from the contract (no path literal to drift from it), the input is typed by it, and
 * `data()` is the answer's data as the contract types it. `body` and `query` may also be what the
 * contract refuses, for the tests of refused input; `token` signs the call in.
 */
export async function inject<C extends Contract>(
  app: FastifyInstance,
  c: C,
  input: Partial<Pick<InputOf<C>, 'params'>> & {
    body?: InputOf<C>['body'] | Record<string, unknown>;
    query?: InputOf<C>['query'] | Record<string, string>;
    token?: string;
  } = {},
) {
  const res = await app.inject({
    method: c.method,
    url: contractPath(c, input.params as Record<string, unknown> | undefined),
    // An undefined value is left out (light-my-request would send the text "undefined").
    ...(input.query ? { query: Object.fromEntries(Object.entries(input.query).filter(([, v]) => v !== undefined)) as Record<string, string> } : {}),
    ...(input.body !== undefined ? { payload: input.body as object } : {}),
    headers: input.token ? auth(input.token) : {},
  });
  return Object.assign(res, { data: () => (res.json() as { data: DataOut<C> }).data });
}

/** The 6-digit code in a mail's text. */
export const otpOf = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;

/** A source of e-mail addresses no other test uses: `${prefix}<time><n>@example.test`. */
export function emailsOf(prefix: string): () => string {
  let seq = 0;
  return () => `${prefix}${Date.now()}${seq++}@example.test`;
}

/** POST a JSON body to the app, with optional headers. */
export const poster =
  (t: TestApp) =>
  (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers });

/** The id of the user with this e-mail. */
export const userIdOf = (t: TestApp) => async (email: string) =>
  (await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

/** Valid withdrawal addresses: an EIP-55 EVM one (BSC, Polygon) and a TRON one. */
export const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
export const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** POST /api/withdraw/create as `u`: USDT on BSC to `EVM` unless `body` says otherwise. */
export const withdrawer = (t: TestApp) => (u: TestUser, body: Record<string, unknown>) =>
  inject(t.app, withdrawals.create, { token: u.token, body: { token: 'USDT', network: 'BSC', wallet_address: EVM, ...body } });
