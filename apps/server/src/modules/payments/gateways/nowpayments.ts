import { gatewayAmount, microToNumber, microToDecimal, type TPayCurrency } from '@app/core';
import { isPaymentStatus } from '../status';
import { GatewayError, type CreatePaymentInput, type CreatedPayment, type PaymentGateway, type PaymentReport } from './gateway';

export interface NowPaymentsOptions {
  apiUrl: string;
  apiKey: string;
  /** optional dashboard login: some accounts see GET /v1/payment/{id} demand a Bearer token too */
  email?: string | undefined;
  password?: string | undefined;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

type Obj = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);

/**
 * NOWPayments REST client (nowpayments.md): `x-api-key` on every call, 201 on create, the error
 * envelope `{status:false, statusCode, code, message}`, and its type quirks normalised at the edge
 * (payment_id string on create and number elsewhere, amounts as numbers or strings, uppercase
 * codes). Amounts become micro-units through their decimal text.
 */
export function createNowPaymentsGateway(opts: NowPaymentsOptions): PaymentGateway {
  const base = opts.apiUrl.replace(/\/$/, '');
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let jwt: { token: string; expiresAt: number } | null = null;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: Obj; query?: Record<string, string>; bearer?: string; timeoutMs?: number; apiKey?: boolean } = {},
  ): Promise<unknown> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (init.apiKey !== false) headers['x-api-key'] = opts.apiKey;
    if (init.body) headers['content-type'] = 'application/json';
    if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers,
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(init.timeoutMs ?? timeoutMs),
      });
    } catch (err) {
      throw new GatewayError('UNREACHABLE', `NOWPayments did not answer: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined; // e.g. the HTML nginx page of a 429
    }
    if (!res.ok) {
      const env = (json && typeof json === 'object' ? json : {}) as Obj;
      const code = typeof env.code === 'string' ? env.code : res.status === 429 ? 'RATE_LIMITED' : `HTTP_${res.status}`;
      const message = typeof env.message === 'string' ? env.message : `NOWPayments answered ${res.status}`;
      throw new GatewayError(code, message, res.status);
    }
    if (json === undefined || json === null || typeof json !== 'object')
      throw new GatewayError('BAD_RESPONSE', `NOWPayments sent an unreadable answer to ${path}`, res.status);
    return json;
  }

  async function bearerToken(): Promise<string | undefined> {
    if (!opts.email || !opts.password) return undefined;
    if (jwt && jwt.expiresAt > Date.now() + 15_000) return jwt.token;
    const res = (await call('POST', '/v1/auth', { body: { email: opts.email, password: opts.password }, apiKey: false })) as Obj;
    if (typeof res.token !== 'string') throw new GatewayError('BAD_RESPONSE', 'NOWPayments auth returned no token');
    // The token lasts 5 minutes; read exp when present, else assume 5 minutes from now.
    let expiresAt = Date.now() + 300_000;
    try {
      const payload = JSON.parse(Buffer.from(res.token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Obj;
      if (typeof payload.exp === 'number') expiresAt = payload.exp * 1000;
    } catch {
      /* opaque token */
    }
    jwt = { token: res.token, expiresAt };
    return jwt.token;
  }

  function report(raw: unknown, fallbackId: string): PaymentReport {
    const p = (raw ?? {}) as Obj;
    const status = typeof p.payment_status === 'string' ? p.payment_status.toLowerCase() : '';
    if (!isPaymentStatus(status)) throw new GatewayError('BAD_RESPONSE', `NOWPayments reported an unknown status "${String(p.payment_status)}"`);
    return {
      providerPaymentId: str(p.payment_id) ?? fallbackId,
      status,
      actuallyPaid: gatewayAmount(p.actually_paid ?? 0, 'down') ?? 0n,
      payAmount: gatewayAmount(p.pay_amount, 'up'),
      priceAmount: gatewayAmount(p.price_amount, 'down'),
      payCurrency: typeof p.pay_currency === 'string' ? p.pay_currency.toLowerCase() : null,
      txHash: str(p.payin_hash),
      confirmations: null,
      parentPaymentId: str(p.parent_payment_id),
      orderId: str(p.order_id),
      payAddress: str(p.pay_address),
    };
  }

  return {
    provider: 'nowpayments',

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const res = (await call('POST', '/v1/payment', {
        body: {
          price_amount: microToNumber(input.priceAmountUsd),
          price_currency: 'usd',
          pay_currency: input.payCurrency,
          order_id: input.orderId,
          order_description: input.description ?? `Deposit of ${microToDecimal(input.priceAmountUsd)} USD`,
          ipn_callback_url: input.ipnCallbackUrl,
        },
      })) as Obj;
      const providerPaymentId = str(res.payment_id);
      const payAddress = str(res.pay_address);
      const payAmount = gatewayAmount(res.pay_amount, 'up');
      if (!providerPaymentId || !payAddress || payAmount === null)
        throw new GatewayError('BAD_RESPONSE', 'NOWPayments created a payment without an id, address or amount');
      const status = typeof res.payment_status === 'string' ? res.payment_status.toLowerCase() : 'waiting';
      const validUntil = typeof res.valid_until === 'string' && !Number.isNaN(Date.parse(res.valid_until)) ? new Date(res.valid_until) : null;
      return { providerPaymentId, payAddress, payAmount, status: isPaymentStatus(status) ? status : 'waiting', validUntil };
    },

    async getPayment(providerPaymentId: string, o: { timeoutMs?: number } = {}): Promise<PaymentReport> {
      if (!/^\d{1,20}$/.test(providerPaymentId)) throw new GatewayError('NOT_FOUND', 'Payment not found', 404);
      const path = `/v1/payment/${providerPaymentId}`;
      try {
        return report(await call('GET', path, { ...o, bearer: jwt?.token }), providerPaymentId);
      } catch (err) {
        // Seen in the wild: GET /v1/payment/{id} asking for a Bearer token although the docs say the key is enough.
        if (err instanceof GatewayError && err.code === 'AUTH_REQUIRED') {
          jwt = null;
          const token = await bearerToken();
          if (token) return report(await call('GET', path, { ...o, bearer: token }), providerPaymentId);
        }
        throw err;
      }
    },

    async listCurrencies(): Promise<string[]> {
      const res = (await call('GET', '/v1/merchant/coins')) as Obj;
      // The docs show {currencies}, a client library parses {selectedCurrencies}: accept both.
      const list = Array.isArray(res.selectedCurrencies) ? res.selectedCurrencies : Array.isArray(res.currencies) ? res.currencies : [];
      return list.filter((c): c is string => typeof c === 'string').map((c) => c.toLowerCase());
    },

    async minAmountUsd(payCurrency: TPayCurrency): Promise<bigint | null> {
      const res = (await call('GET', '/v1/min-amount', { query: { currency_from: payCurrency, currency_to: payCurrency, fiat_equivalent: 'usd' } })) as Obj;
      return gatewayAmount(res.fiat_equivalent ?? res.min_amount, 'up');
    },
  };
}
