import type { Contract, DataOut, InputOf } from '@app/core/contracts/define';
import { toast } from 'sonner';
import { storage } from './storage';

/** A failed call: the server's message (or a fallback), its status and per-field errors. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
  }
}

type Navigate = (to: string) => void;
let navigateTo: Navigate = (to) => window.location.assign(to);
/** The router hands its navigate function here so global redirects stay inside the SPA. */
export function setApiNavigator(fn: Navigate): void {
  navigateTo = fn;
}

/**
 * Global handling of spec section 8: a 401 (or a 403 'Invalid or expired token') clears the token
 * and goes to /; a 503 toasts 'Server is under maintenance' and goes to /maintenance.
 */
function handleGlobal(status: number, message: string | undefined, path: string): void {
  if (status === 401 || (status === 403 && message === 'Invalid or expired token')) {
    // Login and register answer 401 for bad credentials: those are shown on the form, not a redirect.
    if (path.startsWith('/api/auth/login') || path.startsWith('/api/auth/register') || path.startsWith('/api/auth/verify-otp')) return;
    if (storage.getToken()) {
      storage.clearSession();
      navigateTo('/');
    }
  } else if (status === 503) {
    toast.error('Server is under maintenance', { id: 'maintenance' });
    if (window.location.pathname !== '/maintenance') navigateTo('/maintenance');
  }
}

/** What every answer is (server design, section 2); `data` is typed per contract by call(). */
interface Envelope {
  success: boolean;
  message?: string;
  data?: unknown;
  errors?: Record<string, string>;
}

async function request(method: string, path: string, body?: unknown, query?: Record<string, unknown>): Promise<Envelope> {
  const url = new URL(path, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = storage.getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError('Network error. Please check your connection.', 0);
  }
  let json: Envelope | undefined;
  try {
    // The one place JSON becomes a type: the server checks every answer against its contract.
    json = (await res.json()) as Envelope;
  } catch {
    json = undefined;
  }
  if (!res.ok || json?.success === false) {
    handleGlobal(res.status, json?.message, url.pathname);
    // No server message: leave it empty so each screen shows its own fallback text.
    throw new ApiError(json?.message ?? '', res.status, json?.errors ?? {});
  }
  return json ?? { success: true };
}

type CallArgs<C extends Contract> = object extends InputOf<C> ? [input?: InputOf<C>] : [input: InputOf<C>];

/**
 * Calls one endpoint from its contract (spec section 7, with the bearer token): the input and the
 * answer's `data` are typed by the contract, so no call names a type or casts the JSON.
 */
export async function call<C extends Contract>(contract: C, ...[input]: CallArgs<C>): Promise<{ success: true; data: DataOut<C>; message?: string }> {
  const params = (input?.params ?? {}) as Record<string, unknown>;
  const path = `/api${contract.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])))}`;
  const body = contract.method === 'GET' || contract.method === 'DELETE' ? undefined : (input?.body ?? {});
  const json = await request(contract.method, path, body, input?.query as Record<string, unknown> | undefined);
  return { success: true, data: json.data as DataOut<C>, ...(json.message !== undefined ? { message: json.message } : {}) };
}

/** TanStack Query's queryFn for a contract: resolves to the answer's data. */
export const fetchData =
  <C extends Contract>(contract: C, ...args: CallArgs<C>) =>
  async (): Promise<DataOut<C>> =>
    (await call(contract, ...args)).data;

/** The message to show for a failed call: the server's, else the screen's fallback. */
export function errorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.message ? err.message : fallback;
}
