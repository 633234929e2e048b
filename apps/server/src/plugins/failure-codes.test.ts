import { connect } from 'node:net';
import { ERRORS, type ErrorCode } from '@app/core/errors';
import { ZFailure } from '@app/core/contracts';
import { auth as authApi } from '@app/core/contracts/auth';
import { staking } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../test/api';
import { useTestApp } from '../test/app';
import { auth, createUser, fundDeposit } from '../test/factories';
import { freePort } from '../test/processes';

/**
 * Issue 47, "one error vocabulary": every failure the server can send is `{success:false, code,
 * message, errors?}` with a code from the one table (@app/core/errors), the code's status, and
 * Retry-After where the code carries one. One request of each kind of failure, from the route's
 * own rules down to the socket: a second way of answering a failure fails here.
 */
type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };

function expectFailure(res: Answer, code: ErrorCode): void {
  const body = JSON.parse(res.body) as unknown;
  const parsed = ZFailure.safeParse(body);
  expect(parsed.success, `${res.statusCode} ${res.body}`).toBe(true);
  expect((body as { code: string }).code, res.body).toBe(code);
  expect(res.statusCode, `${code}: the table's status`).toBe(ERRORS[code].status);
  const spec = ERRORS[code] as { retryAfter?: boolean };
  if (spec.retryAfter) expect(res.headers['retry-after'], `${code} carries Retry-After`).toBeTruthy();
}

/** Raw bytes to the server; the answer's status line, headers and body. */
function raw(port: number, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const statusCode = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
      resolve({ statusCode, headers: {}, body });
    });
    socket.on('error', reject);
  });
}

describe('every failure carries a code from the one table', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '3', RATE_LIMIT_MONEY_PER_MIN: '100000' });
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
  });

  it('answers the route rules, validation, sessions, the body parser and unknown routes with their codes', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const headers = { ...auth(u.token), 'content-type': 'application/json' };
    expectFailure(await inject(t.app, staking.create, { token: u.token, body: {} }), 'VALIDATION');
    expectFailure(await inject(t.app, staking.create, { token: u.token, body: { amount_usd: 50 } }), 'INSUFFICIENT_BALANCE');
    expectFailure(await t.app.inject({ method: 'POST', url: '/api/stake/create', headers, payload: '{"amount_usd":' }), 'INVALID_JSON');
    expectFailure(
      await t.app.inject({ method: 'POST', url: '/api/stake/create', headers: { ...auth(u.token), 'content-type': 'text/csv' }, payload: 'a,b' }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectFailure(
      await t.app.inject({ method: 'POST', url: '/api/stake/create', headers, payload: JSON.stringify({ amount_usd: 1, pad: 'x'.repeat(70_000) }) }),
      'PAYLOAD_TOO_LARGE',
    );
    expectFailure(await inject(t.app, userApi.wallet, { token: 'not-a-session' }), 'UNAUTHENTICATED');
    expectFailure(await t.app.inject({ method: 'GET', url: '/api/no-such-route' }), 'NOT_FOUND');
    expectFailure(await inject(t.app, authApi.login, { body: { email: 'nobody@example.test', password: 'Wrong1234' } }), 'UNAUTHENTICATED');
  });

  it('answers rate limits and spent guess budgets with their codes', async () => {
    let last: Answer | undefined;
    for (let i = 0; i < 5; i++) last = await inject(t.app, authApi.forgotPassword, { body: { email: `limit${i}@example.test` } });
    expectFailure(last!, 'RATE_LIMITED');
  });

  it('answers the maintenance switch with MAINTENANCE and an outage of the database with UNAVAILABLE, never one for the other', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 100);
    await t.db.updateTable('settings').set({ maintenance_mode: true }).execute();
    t.app.resetMaintenanceCache();
    expectFailure(await inject(t.app, userApi.wallet, { token: u.token }), 'MAINTENANCE');
    await t.db.updateTable('settings').set({ maintenance_mode: false }).execute();
    t.app.resetMaintenanceCache();
    // A table gone under the running server (a database dropped and created again: issue 47).
    await sql`alter table stakes rename to stakes_away`.execute(t.db);
    try {
      const res = await inject(t.app, staking.create, { token: u.token, body: { amount_usd: 50 } });
      expectFailure(res, 'UNAVAILABLE');
      expect(res.json().message).toBe('Service temporarily unavailable');
    } finally {
      await sql`alter table stakes_away rename to stakes`.execute(t.db);
    }
  });

  it('answers what never reaches a route (bad framing, huge headers) in the same shape', async () => {
    expectFailure(await raw(port, 'GARBAGE / HTTP/1.1\r\n\r\n'), 'MALFORMED_REQUEST');
    expectFailure(await raw(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 'HEADERS_TOO_LARGE');
  });
});
