import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, jsSampleJson, signIpn, verifyIpn } from './ipn-signature';

const VECTOR_BODY =
  '{"actually_paid":10.5,"fee":{"currency":"usdttrc20","depositFee":1.126284,"serviceFee":0,"withdrawalFee":0},"order_id":"dep-42","pay_currency":"usdttrc20","payment_extra_ids":null,"payment_id":5077125051,"payment_status":"finished"}';
const VECTOR_SIG = '4b31b4c4da8f596b18722654c3711a59fb838fe8b912d0b122d2cbc887bd9efd007dd507889e3c6725bf9c29c8bb821d85e9ac6e9ebf5d16a04ebcdde35ad076';

describe('IPN signature', () => {
  it('verifies the nowpayments.md test vector', () => {
    expect(signIpn(VECTOR_BODY, 'test_ipn_secret')).toBe(VECTOR_SIG);
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG, 'test_ipn_secret')).not.toBeNull();
  });

  it('verifies the vector when the body arrives unsorted and spaced (canonical form)', () => {
    const shuffled = JSON.stringify(
      {
        payment_status: 'finished',
        payment_id: 5077125051,
        order_id: 'dep-42',
        fee: { withdrawalFee: 0, serviceFee: 0, depositFee: 1.126284, currency: 'usdttrc20' },
        actually_paid: 10.5,
        pay_currency: 'usdttrc20',
        payment_extra_ids: null,
      },
      null,
      2,
    );
    expect(canonicalJson(JSON.parse(shuffled))).toBe(VECTOR_BODY);
    expect(verifyIpn(Buffer.from(shuffled), VECTOR_SIG, 'test_ipn_secret')).not.toBeNull();
  });

  it('trims the secret', () => {
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG, '  test_ipn_secret\n')).not.toBeNull();
  });

  it('accepts an upper-case signature header', () => {
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG.toUpperCase(), 'test_ipn_secret')).not.toBeNull();
  });

  it('refuses a wrong secret, a tampered amount, a missing or malformed header, and no secret', () => {
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG, 'other_secret')).toBeNull();
    expect(verifyIpn(Buffer.from(VECTOR_BODY.replace('10.5', '100.5')), VECTOR_SIG, 'test_ipn_secret')).toBeNull();
    expect(verifyIpn(Buffer.from(VECTOR_BODY), undefined, 'test_ipn_secret')).toBeNull();
    expect(verifyIpn(Buffer.from(VECTOR_BODY), '', 'test_ipn_secret')).toBeNull();
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG.slice(0, 127), 'test_ipn_secret')).toBeNull();
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG, undefined)).toBeNull();
    expect(verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG, '   ')).toBeNull();
  });

  it('refuses SHA-256 and the old one-liner that drops nested keys', () => {
    const sha256 = createHmac('sha256', 'test_ipn_secret').update(VECTOR_BODY).digest('hex');
    expect(verifyIpn(Buffer.from(VECTOR_BODY), sha256, 'test_ipn_secret')).toBeNull();
    const parsed = JSON.parse(VECTOR_BODY) as Record<string, unknown>;
    const oneLiner = JSON.stringify(parsed, Object.keys(parsed).sort());
    expect(oneLiner).toContain('"fee":{}');
    expect(verifyIpn(Buffer.from(VECTOR_BODY), signIpn(oneLiner, 'test_ipn_secret'), 'test_ipn_secret')).toBeNull();
  });

  it('accepts the three documented variants when payment_extra_ids is not empty', () => {
    const body = { payment_id: 1, payment_extra_ids: [12, 7], payment_status: 'finished', fee: { b: 1, a: 2 } };
    const raw = Buffer.from(JSON.stringify(body)); // unsorted raw bytes
    expect(jsSampleJson(body)).toBe('{"fee":{"a":2,"b":1},"payment_extra_ids":{"0":12,"1":7},"payment_id":1,"payment_status":"finished"}');
    expect(canonicalJson(body)).toBe('{"fee":{"a":2,"b":1},"payment_extra_ids":[12,7],"payment_id":1,"payment_status":"finished"}');
    for (const signed of [canonicalJson(body), jsSampleJson(body), raw.toString()]) {
      expect(verifyIpn(raw, signIpn(signed, 's'), 's')).not.toBeNull();
    }
  });

  it('gives the same body hash to the same notification however it is formatted', () => {
    const a = verifyIpn(Buffer.from(VECTOR_BODY), VECTOR_SIG, 'test_ipn_secret');
    const spaced = JSON.stringify(JSON.parse(VECTOR_BODY), null, 1);
    const b = verifyIpn(Buffer.from(spaced), VECTOR_SIG, 'test_ipn_secret');
    expect(a?.bodyHash).toBe(b?.bodyHash);
  });

  it('refuses a body that is not a JSON object', () => {
    for (const raw of ['[1,2]', 'null', 'not json', '']) expect(verifyIpn(Buffer.from(raw), signIpn(raw, 's'), 's')).toBeNull();
  });
});
