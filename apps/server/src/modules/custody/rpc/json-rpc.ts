/**
 * A small JSON-RPC 2.0 client over HTTP for the watchers, with the failures sorted into kinds the
 * watcher knows how to meet (custody.md section 3: shrink the range, back off, retry; never skip).
 * Kept small on purpose: the watcher must see every error and every log as the node sent it, and
 * the fault-injecting transport of the tests sits exactly at `RpcTransport`.
 */

/** What went wrong with a call, by what the watcher does about it. */
export type RpcErrorKind =
  /** the node refuses the block range or the result size: ask for less */
  | 'range'
  /** 429 or a rate-limit error: wait longer */
  | 'rate_limited'
  /** no answer in time, connection refused or reset */
  | 'unreachable'
  /** a 5xx, or an answer that is not JSON-RPC */
  | 'server'
  /** a JSON-RPC error of another kind */
  | 'rpc';

export class RpcError extends Error {
  constructor(
    readonly kind: RpcErrorKind,
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

export interface RpcRequest {
  jsonrpc: '2.0';
  id: number;
  method: string;
  params: unknown[];
}
export interface RpcResponse {
  jsonrpc?: string;
  id?: number | string | null;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

/** One HTTP round trip: a request or a batch in, the parsed body out (or an RpcError). */
export type RpcTransport = (body: RpcRequest | RpcRequest[], opts: { timeoutMs: number; signal?: AbortSignal }) => Promise<RpcResponse | RpcResponse[]>;

/**
 * The signal a call honours: its own timeout, and the process's stop when there is one (a hung node
 * must hold neither a tick past CHAIN_RPC_TIMEOUT_MS nor a shutdown at all).
 */
export function callSignal(timeoutMs: number, stop?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return stop ? AbortSignal.any([timeout, stop]) : timeout;
}

/** Messages with which nodes refuse a range or a result size (geth, erigon, BSC and Polygon providers, Tron). */
const RANGE_RE = /range|too large|too many|too big|exceed|limit|more than \d+|max(imum)? (results|block)|response size|query timeout|timed? ?out/i;

export function classifyRpcError(code: number | undefined, message: string): RpcErrorKind {
  if (code === 429 || code === -32029 || /rate.?limit|too many requests|capacity/i.test(message)) return 'rate_limited';
  if (code === -32005 || RANGE_RE.test(message)) return 'range';
  return 'rpc';
}

/** The transport over fetch: a timeout per call, HTTP statuses and unreadable bodies as RpcErrors. */
export function httpTransport(url: string, fetchImpl: typeof fetch = fetch): RpcTransport {
  return async (body, { timeoutMs, signal }) => {
    let res: Response;
    let text: string;
    const bounded = callSignal(timeoutMs, signal);
    try {
      res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: bounded,
      });
      // The body is under the same bound: a node that sends headers and then stalls is as hung as one that sends nothing.
      text = await res.text();
    } catch (err) {
      throw new RpcError('unreachable', `${url} did not answer within ${timeoutMs} ms: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (res.status === 429) throw new RpcError('rate_limited', `${url} answered 429`, 429);
    if (res.status === 413) throw new RpcError('range', `${url} answered 413`, 413);
    if (res.status >= 500)
      throw new RpcError(/range|too large|limit/i.test(text) ? 'range' : 'server', `${url} answered ${res.status}: ${text.slice(0, 200)}`, res.status);
    try {
      return JSON.parse(text) as RpcResponse | RpcResponse[];
    } catch {
      throw new RpcError('server', `${url} answered ${res.status} with no JSON: ${text.slice(0, 200)}`, res.status);
    }
  };
}

export class JsonRpc {
  private nextId = 1;
  /** time spent waiting for the node, in ms (the benchmark sets it beside the watcher's own time) */
  rpcMs = 0;
  calls = 0;

  constructor(
    private readonly transport: RpcTransport,
    private readonly timeoutMs = 10_000,
    /** aborted when the process stops: every call in flight ends at once */
    private readonly stop?: AbortSignal,
  ) {}

  private unwrap<T>(r: RpcResponse | undefined, method: string): T {
    if (!r || typeof r !== 'object') throw new RpcError('server', `no answer to ${method}`);
    if (r.error) {
      const message = typeof r.error.message === 'string' ? r.error.message : JSON.stringify(r.error);
      throw new RpcError(classifyRpcError(r.error.code, message), `${method}: ${message}`, r.error.code);
    }
    if (!('result' in r)) throw new RpcError('server', `${method}: answer without a result`);
    return r.result as T;
  }

  private async send(body: RpcRequest | RpcRequest[]): Promise<RpcResponse | RpcResponse[]> {
    const started = performance.now();
    this.calls++;
    try {
      if (this.stop?.aborted) throw new RpcError('unreachable', 'stopping');
      return await this.transport(body, { timeoutMs: this.timeoutMs, ...(this.stop ? { signal: this.stop } : {}) });
    } finally {
      this.rpcMs += performance.now() - started;
    }
  }

  async call<T>(method: string, params: unknown[]): Promise<T> {
    const id = this.nextId++;
    const res = await this.send({ jsonrpc: '2.0', id, method, params });
    if (Array.isArray(res)) throw new RpcError('server', `${method}: a batch answer to a single call`);
    if (res.id !== undefined && res.id !== null && res.id !== id) throw new RpcError('server', `${method}: answer to another request (${String(res.id)})`);
    return this.unwrap<T>(res, method);
  }

  /** Several calls in one round trip; answers are matched by id (nodes may reorder them). */
  async batch<T>(calls: { method: string; params: unknown[] }[]): Promise<T[]> {
    if (!calls.length) return [];
    const reqs = calls.map((c) => ({ jsonrpc: '2.0' as const, id: this.nextId++, method: c.method, params: c.params }));
    const res = await this.send(reqs);
    if (!Array.isArray(res)) {
      // A node that refuses batches (or the whole batch) answers one error object.
      return Promise.reject(
        new RpcError(res.error ? classifyRpcError(res.error.code, String(res.error.message)) : 'server', `batch refused: ${JSON.stringify(res).slice(0, 200)}`),
      );
    }
    const byId = new Map(res.map((r) => [r.id, r]));
    return reqs.map((r, i) => this.unwrap<T>(byId.get(r.id), calls[i]!.method));
  }
}
