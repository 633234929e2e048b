import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';
import { auth, createUser } from '../test/factories';
import { freePort } from '../test/processes';
import { redactUrl } from './log-redact';
import { inject } from '../test/api';
import { admin as adminApi } from '@app/core/contracts/admin';
import { staking } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { sendRawJson } from '../test/raw-json';

/** Writes raw bytes to the server and returns everything it answers before closing. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('requests outside the routes answer in the API shape (review findings)', () => {
  const t = useTestApp();
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
  });

  it('logs out when a client sends a JSON content type with an empty body', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { ...auth(user.token), 'content-type': 'application/json' } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true });
    const after = await inject(t.app, userApi.wallet, { token: user.token });
    expect(after.statusCode).toBe(401);
  });

  it('answers an empty JSON body on a route that needs fields with the missing field, and still refuses bad JSON', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const headers = { ...auth(user.token), 'content-type': 'application/json' };
    const empty = await t.app.inject({ method: 'POST', url: '/api/stake/create', headers, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ success: false, code: 'VALIDATION', message: 'Amount is required', errors: { amount_usd: 'Amount is required' } });
    const broken = await t.app.inject({ method: 'POST', url: '/api/stake/create', headers, payload: '{"amount_usd":' });
    expect(broken.json()).toEqual({ success: false, code: 'INVALID_JSON', message: 'Invalid JSON body' });
    const poisoned = await t.app.inject({ method: 'POST', url: '/api/stake/create', headers, payload: '{"__proto__":{"amount_usd":100}}' });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().success).toBe(false);
  });

  it('names the missing fields when there is no body at all, and says so when the body is not an object', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const none = await inject(t.app, staking.create, { token: user.token });
    expect(none.json()).toEqual({ success: false, code: 'VALIDATION', message: 'Amount is required', errors: { amount_usd: 'Amount is required' } });
    const close = await inject(t.app, adminApi.closeTicket, { token: admin.token, params: { id: '1' } });
    expect(close.json()).toEqual({ success: false, code: 'VALIDATION', message: 'Remark is required', errors: { adminRemark: 'Remark is required' } });
    const array = await sendRawJson(t.app, staking.create, user.token, '[]');
    expect(array.statusCode).toBe(400);
    expect(array.json()).toEqual({ success: false, code: 'VALIDATION', message: 'Request body must be a JSON object' });
  });

  it('answers a request the HTTP parser cannot frame with {success:false, message}', async () => {
    const answer = await raw(port, 'GET /api/user/wallet HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, code: 'MALFORMED_REQUEST', message: 'Malformed request' });
  });

  it('answers headers beyond the limit with 431 in the same shape', async () => {
    const answer = await raw(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      code: 'HEADERS_TOO_LARGE',
      message: 'Request headers are too large',
    });
  });
});

describe('log redaction of query strings', () => {
  it('hides passwords and secrets, also inside nested names', () => {
    const url = redactUrl('/api/user/wallet?password=SECRETPW&foo[token]=T1&a.b.code=C1&new_password=P2&totp_code=123456&page=2');
    for (const secret of ['SECRETPW', 'T1', 'C1', 'P2', '123456']) expect(url).not.toContain(secret);
    expect(url).toContain('page=2');
    expect(redactUrl('/api/user/fund-transfer?type=deposit&page=1')).toBe('/api/user/fund-transfer?type=deposit&page=1');
  });
});
