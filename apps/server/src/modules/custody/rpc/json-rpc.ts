/**
 * The failures of node calls sorted into kinds the watcher knows how to meet (custody.md section 3:
 * shrink the range, back off, retry; never skip), and a plain JSON-RPC transport over fetch. The EVM
 * client reads through viem (client.ts) and maps viem's errors to these kinds; an `RpcTransport`
 * is where the tests' fault-injecting transport (and Tron's gateway) sit under viem's custom transport.
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
