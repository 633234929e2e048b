import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { countRows } from '../../test/count-rows';
import { signIpn } from './ipn-signature';

/**
 * "The small doors", finding 1: the IPN route keeps its raw bytes (for the signature), so the JSON
 * parser of every other route, with its depth guard, never sees them. The signature check parsed
 * the body and sorted its keys recursively before comparing, so some thousands of levels, sent
 * by anyone with any 128-hex header, overflowed the stack: a 500. Nesting is refused first now.
 */
describe('POST /api/payments/ipn with deeply nested JSON', () => {
  const secret = 'ipn-depth-secret';
  const t = useTestApp({
    PAYMENTS_GATEWAY: 'nowpayments',
    NOWPAYMENTS_API_URL: 'http://127.0.0.1:9',
    NOWPAYMENTS_API_KEY: 'k',
    NOWPAYMENTS_IPN_SECRET: secret,
  });
  const send = (payload: string, sig = 'a'.repeat(128)) =>
    t.app.inject({ method: 'POST', url: '/api/payments/ipn', payload, headers: { 'content-type': 'application/json', 'x-nowpayments-sig': sig } });
  const nestedIn = (depth: number) => `{"payment_id":1,"fee":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  const arraysIn = (depth: number) => `{"payment_id":1,"fee":${'['.repeat(depth)}${']'.repeat(depth)}}`;

  it('answers 400, never 500, for thousands of levels, signed or not, and writes nothing', async () => {
    const before = { events: await countRows(t.db, 'payment_ipn_events'), payments: await countRows(t.db, 'payments') };
    for (const body of [nestedIn(5_000), arraysIn(5_000), arraysIn(30_000), nestedIn(10_000)]) {
      for (const sig of ['a'.repeat(128), signIpn(body, secret)]) {
        const res = await send(body, sig);
        expect(res.statusCode, `${body.slice(0, 30)} → ${res.statusCode} ${res.body.slice(0, 80)}`).toBe(400);
        expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'Request body is nested too deeply' });
      }
    }
    expect({ events: await countRows(t.db, 'payment_ipn_events'), payments: await countRows(t.db, 'payments') }).toEqual(before);
  });

  it('holds the same 32-level limit as every other JSON body: 33 levels are a 400, 32 reach the signature check', async () => {
    // the IPN object itself is the first level
    const over = send(nestedIn(32));
    const within = send(nestedIn(31));
    expect((await over).statusCode).toBe(400);
    const res = await within;
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid signature' });
  });
});
