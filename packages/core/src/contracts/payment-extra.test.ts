import { describe, expect, it } from 'vitest';
import { ZPaymentStatus } from './payments';

/** The spec's payment extra travels as JSON text; its content is held to ZPaymentExtra where answers are checked. */
describe('payment extra in the answers', () => {
  const answer = (extra: string) => ({
    payment_id: '5077125051',
    status: 'partially_paid',
    amount: 20,
    pay_amount: 20,
    pay_currency: 'usdtbsc',
    credited_amount: 5,
    timedout_at: null,
    confirmations: 3,
    required_confirmations: null,
    extra,
  });
  const good = {
    amount_received: 5,
    expected_amount: 20,
    pay_currency: 'USDT',
    status_description: 'Partially paid',
    confirmations_received: 3,
    last_transaction_hash: '0xabc',
    last_transaction_time: null,
    cancelled_at: null,
  };

  it('accepts the documented shape, with or without the chain gateway fields', () => {
    expect(ZPaymentStatus.safeParse(answer(JSON.stringify(good))).success).toBe(true);
    const chain = { ...good, network_code: 'bsc', required_confirmations: 15, explorer_url: 'https://bscscan.com/tx/0xabc' };
    expect(ZPaymentStatus.safeParse(answer(JSON.stringify(chain))).success).toBe(true);
  });

  it('refuses text that is not JSON, a field of the wrong type, a missing field and a field outside the contract', () => {
    expect(ZPaymentStatus.safeParse(answer('{not json')).success).toBe(false);
    expect(ZPaymentStatus.safeParse(answer(JSON.stringify({ ...good, amount_received: '5' }))).success).toBe(false);
    const { expected_amount: _dropped, ...missing } = good;
    expect(ZPaymentStatus.safeParse(answer(JSON.stringify(missing))).success).toBe(false);
    expect(ZPaymentStatus.safeParse(answer(JSON.stringify({ ...good, secret: 'x' }))).success).toBe(false);
  });
});
