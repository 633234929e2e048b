/**
 * A local NOWPayments for tests, following the documented contract (nowpayments.md §1–§5, §8):
 * `/v1/...` paths, the `x-api-key` check (403 INVALID_API_KEY), the error envelope, 201 on
 * create with payment_id as a STRING, GET with payment_id as a number and pay_amount sometimes a
 * string, JWT login (300 s), and signed IPNs (keys sorted recursively, updated_at in epoch ms)
 * sent to the payment's ipn_callback_url, with modes for duplicates, out-of-order delivery and
 * child payments. Every request is recorded so tests can check the client field by field.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxAddress } from '../modules/payments/gateways/sandbox';
import { canonicalJson } from '../modules/payments/ipn-signature';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  rawBody: string;
}

export interface FakePayment {
  payment_id: number;
  invoice_id: number | null;
  payment_status: string;
  pay_address: string;
  payin_extra_id: string | null;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  actually_paid_at_fiat: number;
  pay_currency: string;
  order_id: string | null;
  order_description: string | null;
  purchase_id: string;
  outcome_amount: number;
  outcome_currency: string;
  payin_hash: string | null;
  payout_hash: string | null;
  payment_extra_ids: number[] | null;
  parent_payment_id?: number;
  origin_type?: string;
  ipn_callback_url: string | null;
  created_at: string;
  updated_at: string;
  valid_until: string;
  type: string;
}

export interface IpnDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface FakeNowPaymentsOptions {
  apiKey?: string;
  ipnSecret?: string;
  email?: string;
  password?: string;
  /** the smallest price accepted, USD (min-amount and AMOUNT_MINIMAL_ERROR) */
  minAmountUsd?: number;
  /** GET answers pay_amount as a string: always, never, or every other call (default) */
  payAmountAsString?: 'always' | 'never' | 'alternate';
  /** GET /v1/payment/{id} demands a Bearer token as well as the key (seen in the wild) */
  requireBearerOnGet?: boolean;
  currencies?: string[];
  /** replaces the HTTP POST of IPNs (returns the status code) */
  deliver?: (d: IpnDelivery) => Promise<number>;
}

const SUPPORTED = ['usdtbsc', 'usdtmatic', 'usdttrc20', 'btc', 'eth'];

export type FakeCase = 'success' | 'common' | 'failed' | 'fail' | 'partially_paid';

export async function startFakeNowPayments(options: FakeNowPaymentsOptions = {}) {
  const apiKey = options.apiKey ?? 'k';
  const ipnSecret = options.ipnSecret ?? 's';
  const requests: RecordedRequest[] = [];
  const ipnLog: (IpnDelivery & { status: number })[] = [];
  const payments = new Map<string, FakePayment>();
  const tokens = new Map<string, number>();
  let nextId = 5_077_125_051;
  let getCount = 0;
  let failures: { status: number; body: string; contentType: string }[] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, statusCode: number, code: string, message: string) => send(res, statusCode, { status: false, statusCode, code, message });

  function publicShape(p: FakePayment, forGet: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = { ...p };
    if (forGet) {
      getCount++;
      const asString = options.payAmountAsString ?? 'alternate';
      if (asString === 'always' || (asString === 'alternate' && getCount % 2 === 1)) out.pay_amount = String(p.pay_amount);
    }
    return out;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function jwt(): string {
    const now = Math.floor(Date.now() / 1000);
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ id: 'fake', iat: now, exp: now + 300 })}.${randomBytes(16).toString('base64url')}`;
    tokens.set(token, (now + 300) * 1000);
    return token;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const rawBody = await readBody(req);
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = rawBody;
    }
    requests.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body, rawBody });

    const failure = failures.shift();
    if (failure) {
      res.writeHead(failure.status, { 'content-type': failure.contentType });
      res.end(failure.body);
      return;
    }
    const path = url.pathname.replace(/\/$/, '');
    if (req.method === 'GET' && path === '/v1/status') return send(res, 200, { message: 'OK' });
    if (req.method === 'POST' && path === '/v1/auth') {
      const b = (body ?? {}) as Record<string, unknown>;
      if (b.email !== options.email || b.password !== options.password || !options.email)
        return error(res, 401, 'INVALID_CREDENTIALS', 'Invalid email or password');
      return send(res, 200, { token: jwt() });
    }
    if (req.headers['x-api-key'] !== apiKey) return error(res, 403, 'INVALID_API_KEY', 'Invalid api key');

    if (req.method === 'GET' && path === '/v1/currencies') return send(res, 200, { currencies: options.currencies ?? SUPPORTED });
    if (req.method === 'GET' && path === '/v1/merchant/coins')
      return send(res, 200, { selectedCurrencies: (options.currencies ?? SUPPORTED).map((c) => c.toUpperCase()) });
    if (req.method === 'GET' && path === '/v1/min-amount') {
      const from = url.searchParams.get('currency_from');
      const to = url.searchParams.get('currency_to');
      if (!from || !to) return error(res, 400, 'INVALID_REQUEST_PARAMS', 'currency_from and currency_to are required');
      const min = options.minAmountUsd ?? 1;
      return send(res, 200, {
        currency_from: from,
        currency_to: to,
        min_amount: min,
        ...(url.searchParams.get('fiat_equivalent') ? { fiat_equivalent: min } : {}),
      });
    }
    if (req.method === 'POST' && path === '/v1/payment') {
      const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
      if (typeof b.price_amount !== 'number' || !(b.price_amount > 0))
        return error(res, 400, 'INVALID_REQUEST_PARAMS', 'price_amount must be a positive number');
      if (typeof b.price_currency !== 'string') return error(res, 400, 'INVALID_REQUEST_PARAMS', 'price_currency is required');
      if (typeof b.pay_currency !== 'string' || !SUPPORTED.includes(b.pay_currency)) return error(res, 400, 'CURRENCY_UNAVAILABLE', 'Currency is unavailable');
      if (b.price_amount < (options.minAmountUsd ?? 1)) return error(res, 400, 'AMOUNT_MINIMAL_ERROR', 'amountTo is too small');
      const now = new Date();
      const id = nextId++;
      const currency = b.pay_currency;
      const p: FakePayment = {
        payment_id: id,
        invoice_id: null,
        payment_status: 'waiting',
        pay_address: currency === 'usdttrc20' ? sandboxAddress('usdttrc20') : sandboxAddress('usdtbsc'),
        payin_extra_id: null,
        price_amount: b.price_amount,
        price_currency: b.price_currency,
        pay_amount: b.price_amount,
        actually_paid: 0,
        actually_paid_at_fiat: 0,
        pay_currency: currency,
        order_id: typeof b.order_id === 'string' ? b.order_id : null,
        order_description: typeof b.order_description === 'string' ? b.order_description : null,
        purchase_id: String(4_000_000_000 + id),
        outcome_amount: 0,
        outcome_currency: currency,
        payin_hash: null,
        payout_hash: null,
        payment_extra_ids: null,
        ipn_callback_url: typeof b.ipn_callback_url === 'string' ? b.ipn_callback_url : null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        valid_until: new Date(now.getTime() + 20 * 60_000).toISOString(),
        type: 'crypto2crypto',
      };
      payments.set(String(id), p);
      if (typeof b.case === 'string') void runCase(String(id), b.case as FakeCase, 20);
      const created: Record<string, unknown> = {
        ...publicShape(p, false),
        payment_id: String(id), // a string on create only
        amount_received: null,
        smart_contract: null,
        network: currency === 'usdttrc20' ? 'trx' : currency === 'usdtmatic' ? 'matic' : 'bsc',
        network_precision: 6,
        time_limit: null,
        burning_percent: null,
        expiration_estimate_date: new Date(now.getTime() + 86_400_000).toISOString(),
        is_fixed_rate: false,
        is_fee_paid_by_user: false,
      };
      return send(res, 201, created);
    }
    const m = /^\/v1\/payment\/(\d+)$/.exec(path);
    if (req.method === 'GET' && m) {
      if (options.requireBearerOnGet) {
        const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
        const exp = auth ? tokens.get(auth[1]!) : undefined;
        if (!exp || exp < Date.now()) return error(res, 401, 'AUTH_REQUIRED', 'Authorization header is empty (Bearer JWTtoken is required)');
      }
      const p = payments.get(m[1]!);
      if (!p) return error(res, 404, 'PAYMENT_NOT_FOUND', 'Payment not found');
      return send(res, 200, publicShape(p, true));
    }
    return error(res, 404, 'NOT_FOUND', `Cannot ${req.method} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => error(res, 500, 'INTERNAL', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function mustGet(id: string | number): FakePayment {
    const p = payments.get(String(id));
    if (!p) throw new Error(`fake: no payment ${id}`);
    return p;
  }

  /** Sets the payment's state as NOWPayments would see it (what GET answers from now on). */
  function setPayment(id: string | number, patch: Partial<FakePayment>): FakePayment {
    const p = mustGet(id);
    Object.assign(p, patch, { updated_at: new Date().toISOString() });
    if (patch.actually_paid !== undefined && patch.actually_paid > 0 && !p.payin_hash) p.payin_hash = `0x${randomBytes(32).toString('hex')}`;
    if (patch.actually_paid !== undefined) p.outcome_amount = patch.actually_paid;
    return p;
  }

  /** The IPN body for the payment's current state: keys sorted at every depth, updated_at in epoch ms. */
  function ipnBody(id: string | number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const p = mustGet(id);
    const body: Record<string, unknown> = {
      actually_paid: p.actually_paid,
      actually_paid_at_fiat: p.actually_paid_at_fiat,
      fee: { currency: p.pay_currency, depositFee: 0, serviceFee: 0, withdrawalFee: 0 },
      invoice_id: p.invoice_id,
      order_description: p.order_description,
      order_id: p.order_id,
      outcome_amount: p.outcome_amount,
      outcome_currency: p.outcome_currency,
      parent_payment_id: p.parent_payment_id ?? null,
      pay_address: p.pay_address,
      pay_amount: p.pay_amount,
      pay_currency: p.pay_currency,
      payin_extra_id: p.payin_extra_id,
      payment_extra_ids: p.payment_extra_ids,
      payment_id: p.payment_id,
      payment_status: p.payment_status,
      price_amount: p.price_amount,
      price_currency: p.price_currency,
      purchase_id: p.purchase_id,
      updated_at: Date.parse(p.updated_at),
      ...overrides,
    };
    return JSON.parse(canonicalJson(body as never)) as Record<string, unknown>;
  }

  function sign(text: string, secret = ipnSecret): string {
    return createHmac('sha512', secret.trim()).update(text).digest('hex');
  }

  async function deliver(d: IpnDelivery): Promise<number> {
    let status: number;
    if (options.deliver) status = await options.deliver(d);
    else {
      const res = await fetch(d.url, { method: 'POST', headers: d.headers, body: d.body, signal: AbortSignal.timeout(10_000) });
      await res.text();
      status = res.status;
    }
    ipnLog.push({ ...d, status });
    return status;
  }

  /**
   * Sends the payment's IPN to its ipn_callback_url. `times` copies (concurrently unless
   * `sequential`), signed with `secret` (default: the right one), optionally with a changed
   * body after signing (`tamper`) or no signature at all. Returns each answer's status code.
   */
  async function sendIpn(
    id: string | number,
    opts: {
      times?: number;
      sequential?: boolean;
      secret?: string;
      tamper?: Record<string, unknown>;
      unsigned?: boolean;
      overrides?: Record<string, unknown>;
      url?: string;
    } = {},
  ): Promise<number[]> {
    const p = mustGet(id);
    const url = opts.url ?? p.ipn_callback_url;
    if (!url) throw new Error('fake: payment has no ipn_callback_url');
    const body = ipnBody(id, opts.overrides);
    const signedText = JSON.stringify(body); // already sorted: the raw body is the canonical form
    const sig = sign(signedText, opts.secret);
    const sentText = opts.tamper ? JSON.stringify(JSON.parse(canonicalJson({ ...body, ...opts.tamper } as never))) : signedText;
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.unsigned ? {} : { 'x-nowpayments-sig': sig }) };
    const times = opts.times ?? 1;
    const one = () => deliver({ url, headers, body: sentText });
    if (opts.sequential) {
      const out: number[] = [];
      for (let i = 0; i < times; i++) out.push(await one());
      return out;
    }
    return Promise.all(Array.from({ length: times }, one));
  }

  /**
   * Out-of-order delivery: the IPN of each state is captured in order, then delivered in reverse
   * (later states first), as NOWPayments' retries can do.
   */
  async function sendOutOfOrder(id: string | number, states: Partial<FakePayment>[]): Promise<number[]> {
    const captured: IpnDelivery[] = [];
    const p = mustGet(id);
    for (const s of states) {
      setPayment(id, s);
      const text = JSON.stringify(ipnBody(id));
      captured.push({ url: p.ipn_callback_url!, headers: { 'content-type': 'application/json', 'x-nowpayments-sig': sign(text) }, body: text });
    }
    const out: number[] = [];
    for (const d of captured.reverse()) out.push(await deliver(d));
    return out;
  }

  /** A further deposit to the parent's address: a child payment with parent_payment_id and order_id null. */
  function createChild(parentId: string | number, state: { actually_paid: number; payment_status?: string; pay_currency?: string }): FakePayment {
    const parent = mustGet(parentId);
    const id = nextId++;
    const child: FakePayment = {
      ...parent,
      payment_id: id,
      parent_payment_id: parent.payment_id,
      origin_type: 'REPEATED',
      order_id: null,
      order_description: null,
      payment_status: state.payment_status ?? 'partially_paid',
      pay_currency: state.pay_currency ?? parent.pay_currency,
      price_amount: state.actually_paid,
      pay_amount: state.actually_paid,
      actually_paid: state.actually_paid,
      outcome_amount: state.actually_paid,
      payin_hash: `0x${randomBytes(32).toString('hex')}`,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    };
    payments.set(String(id), child);
    parent.payment_extra_ids = [...(parent.payment_extra_ids ?? []), id];
    return child;
  }

  /** The sandbox's `case` state machine on a timer, with an IPN at every step. */
  async function runCase(id: string | number, kase: FakeCase, stepMs = 20): Promise<void> {
    const p = mustGet(id);
    const full = p.pay_amount;
    const steps: Partial<FakePayment>[] =
      kase === 'failed' || kase === 'fail'
        ? [{ payment_status: 'confirming', actually_paid: full }, { payment_status: 'failed' }]
        : kase === 'partially_paid'
          ? [
              { payment_status: 'confirming', actually_paid: Math.floor(full * 60) / 100 },
              { payment_status: 'confirmed' },
              { payment_status: 'sending' },
              { payment_status: 'partially_paid' },
            ]
          : [
              { payment_status: 'confirming', actually_paid: full },
              { payment_status: 'confirmed' },
              { payment_status: 'sending' },
              { payment_status: 'finished' },
            ];
    for (const s of steps) {
      await new Promise((r) => setTimeout(r, stepMs));
      setPayment(id, s);
      if (p.ipn_callback_url) await sendIpn(id).catch(() => undefined);
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    ipnSecret,
    requests,
    ipnLog,
    payments,
    setPayment,
    ipnBody,
    sign,
    sendIpn,
    sendOutOfOrder,
    createChild,
    runCase,
    /** The next `count` requests get this answer (e.g. 500, or 429 with nginx's HTML page). */
    failNext(status: number, count = 1, body?: string) {
      const isHtml = status === 429 && body === undefined;
      const text =
        body ??
        (isHtml
          ? '<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center><hr><center>nginx</center></body></html>'
          : JSON.stringify({ status: false, statusCode: status, code: 'INTERNAL_ERROR', message: 'Internal error' }));
      failures = [...failures, ...Array.from({ length: count }, () => ({ status, body: text, contentType: isHtml ? 'text/html' : 'application/json' }))];
    },
    /** Requests to one path (method optional). */
    requestsTo(path: string | RegExp, method?: string) {
      return requests.filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path)) && (!method || r.method === method));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeNowPayments = Awaited<ReturnType<typeof startFakeNowPayments>>;
