import { ERRORS, type ErrorCode } from '@app/core/errors';
import { envelopeOf, ZFailure, type Contract, type DataOut } from '@app/core/contracts/define';
import { auth } from '@app/core/contracts/auth';
import { history } from '@app/core/contracts/money';
import { demoPayments, payments } from '@app/core/contracts/payments';
import { security } from '@app/core/contracts/security';
import { user } from '@app/core/contracts/user';
import { http, HttpResponse, type HttpHandler } from 'msw';

/*
 * MSW handlers declared from the contracts (issue 50). A handler's answer is typed by its contract
 * (`DataOut<C>`) and parsed with the contract's own schema before it is sent: a fake whose data
 * drifted from the contract (a field renamed, a type changed) is recorded as a drift, answered as a
 * 500, and fails the test (render-app.tsx checks after each test), instead of a green test against
 * an answer the server can no longer give.
 */

/** One request the app sent, as a handler saw it. */
export interface SeenRequest {
  method: string;
  /** the path with /api, e.g. /api/stake/create */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** What a resolver gets: the request, its path parameters, its JSON body (undefined when none) and query. */
export interface AnswerArgs {
  request: Request;
  params: Record<string, string | readonly string[] | undefined>;
  body: unknown;
  query: URLSearchParams;
  /** 1 for the first request this handler answers, 2 for the second … */
  n: number;
}

/** The answer's data, or a function of the request that returns it (for an answer that waits, see AnswerOptions.hold). */
type Resolver<T> = T | ((args: AnswerArgs) => T);

const seen: SeenRequest[] = [];
const drifts: string[] = [];
const unhandled: string[] = [];

/** Every request the app sent to the fake server in this test, in order. */
export const requests = (): readonly SeenRequest[] => seen;
/** The requests of one contract's endpoint (method and path). */
export const requestsTo = (c: Contract): SeenRequest[] => seen.filter((r) => r.method === c.method && matches(c.path, r.path));
/** Answers that did not match their contract (emptied by the call). */
export function takeDrifts(): string[] {
  return drifts.splice(0);
}
/** Requests no handler answered (emptied by the call). */
export function takeUnhandled(): string[] {
  return unhandled.splice(0);
}
/** Forgets what the last test sent (render-app.tsx calls it before each test). */
export function resetRecords(): void {
  seen.length = 0;
  drifts.length = 0;
  unhandled.length = 0;
}

function matches(pattern: string, path: string): boolean {
  const re = new RegExp(`^/api${pattern.replace(/:\w+/g, '[^/]+')}$`);
  return re.test(path);
}

/** The MSW path of a contract: any origin, `/api` + the contract's path with its `:params`. */
const urlOf = (c: Contract) => `*/api${c.path}`;
const METHOD = { GET: http.get, POST: http.post, PUT: http.put, DELETE: http.delete } as const;

async function record(request: Request): Promise<{ body: unknown; query: URLSearchParams; path: string }> {
  const url = new URL(request.url);
  let body: unknown = undefined;
  const text = await request.clone().text();
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  seen.push({ method: request.method, path: url.pathname, query: url.searchParams, body });
  return { body, query: url.searchParams, path: url.pathname };
}

/**
 * The success envelope of `c` around `data`, checked against the contract's schema. Throws when
 * `data` does not match (the message names the endpoint and the fields).
 */
export function envelope<C extends Contract>(c: C, data: DataOut<C>, message?: string): unknown {
  const body = c.data
    ? { success: true, data, ...(message !== undefined ? { message } : {}) }
    : { success: true, ...(message !== undefined ? { message } : {}) };
  const parsed = envelopeOf(c.data).safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`contract drift: the fake answer of ${c.method} /api${c.path} does not match its contract: ${issues}`);
  }
  return body;
}

export interface AnswerOptions {
  /** the envelope's message (a success toast some screens show) */
  message?: string;
  /** answer only the first request (then the next handler in line answers) */
  once?: boolean;
  /** hold the answer until this promise settles (a call in flight) */
  hold?: Promise<unknown>;
}

/**
 * A handler for `c` that answers `data` (or what the resolver returns), typed by the contract and
 * parsed with its schema before it is sent.
 */
export function answer<C extends Contract>(c: C, data: Resolver<DataOut<NoInfer<C>>>, options: AnswerOptions = {}): HttpHandler {
  let n = 0;
  return METHOD[c.method](
    urlOf(c),
    async ({ request, params }) => {
      const { body, query } = await record(request);
      n += 1;
      if (options.hold) await options.hold;
      const value = typeof data === 'function' ? (data as (args: AnswerArgs) => DataOut<C>)({ request, params, body, query, n }) : data;
      try {
        return HttpResponse.json(envelope(c, value, options.message) as Record<string, unknown>);
      } catch (err) {
        drifts.push((err as Error).message);
        return HttpResponse.json({ success: false, code: 'INTERNAL', message: (err as Error).message }, { status: 500 });
      }
    },
    { once: options.once ?? false },
  );
}

/** A failure as the server sends it: `{success:false, code, message, errors?}` with the code's status from the one table. */
export function failure(code: ErrorCode, message?: string, errors?: Record<string, string>): Response {
  const spec = ERRORS[code] as { status: number; message?: string };
  const body = ZFailure.parse({ success: false, code, message: message ?? spec.message ?? code, ...(errors ? { errors } : {}) });
  return HttpResponse.json(body, { status: spec.status });
}

/** A handler for `c` that fails with `code` (its status from the error table), the message and field errors given. */
export function fail(
  c: Contract,
  code: ErrorCode,
  message?: string,
  options: { errors?: Record<string, string>; once?: boolean; hold?: Promise<unknown>; while?: () => boolean } = {},
): HttpHandler {
  return METHOD[c.method](
    urlOf(c),
    async ({ request }) => {
      // The fault is over: the next handler in line answers.
      if (options.while && !options.while()) return undefined;
      await record(request);
      if (options.hold) await options.hold;
      return failure(code, message, options.errors);
    },
    { once: options.once ?? false },
  );
}

/** A handler for `c` whose request never reaches a server (the network is down): fetch rejects. */
export function unreachable(c: Contract, options: { once?: boolean; while?: () => boolean } = {}): HttpHandler {
  return METHOD[c.method](
    urlOf(c),
    async ({ request }) => {
      // Network back: the next handler in line answers.
      if (options.while && !options.while()) return undefined;
      await record(request);
      return HttpResponse.error();
    },
    { once: options.once ?? false },
  );
}

/** The last handler: records a request nothing answered and refuses it, so render-app.tsx fails the test. */
export const catchAll = http.all('*/api/*', async ({ request }) => {
  const { path } = await record(request);
  unhandled.push(`${request.method} ${path}`);
  return failure('NOT_FOUND', `no test handler for ${request.method} ${path}`);
});

/* Fixtures: a plausible signed-in user with money on the account. */

export const SETTINGS: DataOut<typeof user.settings>['settings'] = {
  roi_income_percentage: 0.5,
  direct_referral_percentage: 5,
  stake_cap_percentage: 200,
  withdrawal_fee_percentage: 5,
};

export const WALLET: DataOut<typeof user.wallet> = {
  user_id: '7',
  balance: 560,
  deposit_balance: 200,
  total_staked: 100,
  total_income: 560,
  total_withdraw: 0,
  total_directs: 0,
  total_direct_business: 0,
  total_network: 0,
  team_business: { users: 0, amount: 0 },
};

export const USER_INFO: DataOut<typeof user.info> = {
  name: 'Test Person',
  username: 'TP1234567',
  status: 'active',
  eligible_level: 0,
  user_detail: {
    deposit_balance: 200,
    total_staked: 100,
    total_income: 560,
    roi_income: 560,
    direct_referral_income: 0,
    reward_income: 0,
    balance: 560,
  },
  activity: [],
};

export const PROFILE: DataOut<typeof user.profile> = {
  avatar: null,
  name: 'Test Person',
  username: 'TP1234567',
  email: 'test.person@example.com',
  referral_id: null,
  status: 'active',
  active_date: '2026-12-01T10:00:00.000Z',
};

export const SECURITY: DataOut<typeof security.info> = {
  two_factor_enabled: false,
  email: 'test.person@example.com',
  sessions: [],
};

/** An empty page of the combined history (deposits, withdrawals or transfers). */
export const EMPTY_HISTORY: DataOut<typeof history.list> = {
  data: [],
  pagination: { total: 0, page: 1, perPage: 10 },
  total_deposits: 0,
  total_withdrawals: 0,
};

/**
 * The reads every signed-in page may make (user info, profile, settings, wallet, the security state,
 * the history the pending-withdrawals notice reads, the open payments) and the login page's provider list.
 */
export const defaultHandlers = (): HttpHandler[] => [
  answer(history.list, EMPTY_HISTORY),
  answer(demoPayments.pending, []),
  answer(payments.pending, []),
  answer(auth.providers, { google: false, facebook: false, instagram: false }),
  answer(user.info, USER_INFO),
  answer(user.profile, PROFILE),
  answer(user.settings, { settings: SETTINGS }),
  answer(user.wallet, WALLET),
  answer(security.info, SECURITY),
];
