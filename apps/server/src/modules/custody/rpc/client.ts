import {
  BaseError,
  BlockNotFoundError,
  ContractFunctionZeroDataError,
  createPublicClient,
  custom,
  erc20Abi,
  http,
  HttpRequestError,
  ResponseBodyTooLargeError,
  RpcRequestError,
  TimeoutError,
  type Address,
  type Hash,
  type Transport,
} from 'viem';
import { classifyRpcError, RpcError, type RpcRequest, type RpcResponse, type RpcTransport } from './json-rpc';

/** keccak-256 of `Transfer(address,address,uint256)`: topic 0 of every ERC-20 / TRC-20 transfer. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** One Transfer log as the watcher stores it: addresses as lowercase 0x hex of 20 bytes. */
export interface TransferLog {
  blockNumber: bigint;
  blockHash: string;
  txHash: string;
  logIndex: number;
  token: string;
  from: string;
  to: string;
  raw: bigint;
}

/** A transaction's receipt as the quorum and the payouts' evidence read it. */
export interface Receipt {
  status: 'success' | 'reverted' | null;
  blockNumber: bigint | null;
  blockHash: string | null;
  logs: { address: string; topics: readonly string[]; data: string; logIndex: number | null }[];
}

/** What a watcher asks of a node; one implementation per kind of node (EVM JSON-RPC, Tron). */
export interface ChainClient {
  head(): Promise<bigint>;
  /** the node's finalized (Tron: solidified) height; null when the node has no such notion */
  finalizedHeight(): Promise<bigint | null>;
  /** the node's hash at each height; a height the node does not have is left out */
  blockHashes(numbers: bigint[]): Promise<Map<bigint, string>>;
  /**
   * Transfer logs of `token` over [from, to] whose recipient is one of `toAddresses` (all
   * recipients when null), with the hash of block `to` asked in the same batch: a node (a replica
   * behind a load balancer) that does not have `to` yet answers null there, and its logs are not
   * the whole range.
   */
  transferLogs(from: bigint, to: bigint, token: string, toAddresses: string[] | null): Promise<{ logs: TransferLog[]; toHash: string | null }>;
  /** the token balance of `owner`, at a height when the node can say (else the latest) */
  balanceOf(token: string, owner: string, at: bigint | null): Promise<bigint>;
  /**
   * The balances of many owners in one round trip (a JSON-RPC batch of eth_call), in their order.
   * Optional: a client without it (a test's fault-injecting one) is read one balanceOf at a time.
   */
  balancesOf?(token: string, owners: string[], at: bigint | null): Promise<bigint[]>;
  /** the receipts of transactions (0x hashes), in their order, in batches of 100; null where the node has none */
  receipts(txHashes: string[]): Promise<(Receipt | null)[]>;
}

/** Round trips to the node and the time spent waiting for them (the benchmark sets it beside the watcher's own time). */
export interface RpcStats {
  rpcMs: number;
  calls: number;
}

/** The EVM client: a ChainClient with its round-trip counters. */
export interface EvmClient extends ChainClient {
  readonly rpc: RpcStats;
}

const HASH_RE = /^0x[0-9a-f]{64}$/;
/** JSON-RPC requests in one HTTP batch at most (a batch of blocks or receipts is 100; balances up to 500) */
const BATCH_SIZE = 1_000;
/** blocks or receipts asked in one batch */
const CHUNK = 100;

/** A log as the node answers it (quantities as hex text), before its numbers are read. */
interface RawLog {
  address?: unknown;
  topics?: unknown;
  data?: unknown;
  blockNumber?: unknown;
  blockHash?: unknown;
  transactionHash?: unknown;
  logIndex?: unknown;
  removed?: boolean;
}
const quantityOf = (n: bigint) => `0x${n.toString(16)}` as const;

/** A log with its block number and index read; a node can answer anything, so every field is checked. */
interface FormattedLog {
  address?: unknown;
  topics?: unknown;
  data?: unknown;
  blockNumber?: bigint | null;
  blockHash?: unknown;
  transactionHash?: unknown;
  logIndex?: number | null;
  removed?: boolean;
}

/**
 * Reads a node's logs without trusting them: only the configured contract's `Transfer` with two
 * indexed addresses and one 32-byte amount counts (an ERC-721 Transfer has a third topic, a look-alike
 * token another address); a log outside the asked range or to an address not asked for is dropped
 * (the range that holds it reads it); a log without its block (pending) fails the read.
 */
export function parseTransferLogs(logs: readonly FormattedLog[], from: bigint, to: bigint, token: string, toAddresses: Set<string> | null): TransferLog[] {
  if (!Array.isArray(logs)) throw new RpcError('server', 'eth_getLogs did not answer a list');
  const out: TransferLog[] = [];
  for (const l of logs) {
    if (!l || typeof l !== 'object' || l.removed) continue;
    if (typeof l.address !== 'string' || l.address.toLowerCase() !== token) continue;
    const topics = l.topics;
    if (!Array.isArray(topics) || topics.length !== 3 || !topics.every((t) => typeof t === 'string')) continue;
    const [t0, t1, t2] = (topics as string[]).map((t) => t.toLowerCase()) as [string, string, string];
    if (t0 !== TRANSFER_TOPIC) continue;
    if (typeof l.data !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(l.data)) continue;
    const blockHash = typeof l.blockHash === 'string' ? l.blockHash.toLowerCase() : null;
    const txHash = typeof l.transactionHash === 'string' ? l.transactionHash.toLowerCase() : null;
    if (!blockHash || !HASH_RE.test(blockHash) || !txHash || !HASH_RE.test(txHash) || typeof l.blockNumber !== 'bigint' || typeof l.logIndex !== 'number')
      throw new RpcError('server', 'a log without its block, transaction or index (pending?)');
    if (!Number.isSafeInteger(l.logIndex) || l.logIndex < 0) throw new RpcError('server', `log index is not a number: ${l.logIndex}`);
    const blockNumber = l.blockNumber;
    if (blockNumber < from || blockNumber > to) continue;
    const recipient = `0x${t2.slice(-40)}`;
    if (toAddresses && !toAddresses.has(recipient)) continue;
    // Topics of addresses are 12 zero bytes and the address; anything else is not an ERC-20 transfer.
    if (!/^0x0{24}[0-9a-f]{40}$/.test(t2) || !/^0x0{24}[0-9a-f]{40}$/.test(t1)) continue;
    out.push({ blockNumber, blockHash, txHash, logIndex: l.logIndex, token, from: `0x${t1.slice(-40)}`, to: recipient, raw: BigInt(l.data) });
  }
  return out;
}

const causes = (err: unknown): unknown[] => {
  const out: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && out.length < 10; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
};
const RANGE_BODY_RE = /range|too large|limit/i;

/**
 * Sorts what viem throws into the kinds the watcher meets (custody.md section 3): a refused range
 * or result size ('range': ask for less), a 429 or rate-limit error ('rate_limited': wait longer),
 * no answer in time or no connection ('unreachable'), a 5xx or an unreadable answer ('server'), any
 * other JSON-RPC error ('rpc'). An RpcError thrown under viem (a test's transport) passes as it is.
 */
export function toRpcError(err: unknown, where: { url: string; timeoutMs: number; what: string }): RpcError {
  const chain = causes(err);
  const ours = chain.find((e): e is RpcError => e instanceof RpcError);
  if (ours) return ours;
  const find = <T>(cls: abstract new (...args: never[]) => T): T | undefined => chain.find((e): e is T => e instanceof cls);
  if (find(TimeoutError) || chain.some((e) => e instanceof Error && e.name === 'TimeoutError'))
    return new RpcError('unreachable', `${where.url} did not answer within ${where.timeoutMs} ms`);
  if (chain.some((e) => e instanceof Error && e.name === 'AbortError')) return new RpcError('unreachable', `${where.url}: stopping`);
  if (find(ResponseBodyTooLargeError)) return new RpcError('range', `${where.what}: ${where.url} answered more than the response size limit`);
  const rpcReq = find(RpcRequestError);
  const httpErr = find(HttpRequestError);
  const status = rpcReq?.status ?? httpErr?.status;
  const details = (rpcReq ?? httpErr)?.details ?? (err instanceof BaseError ? err.shortMessage : err instanceof Error ? err.message : String(err));
  if (status === 429) return new RpcError('rate_limited', `${where.url} answered 429`, 429);
  if (status === 413) return new RpcError('range', `${where.url} answered 413`, 413);
  if (status !== undefined && status >= 500)
    return new RpcError(RANGE_BODY_RE.test(details) ? 'range' : 'server', `${where.url} answered ${status}: ${details.slice(0, 200)}`, status);
  if (rpcReq) return new RpcError(classifyRpcError(rpcReq.code, details), `${where.what}: ${details}`, rpcReq.code);
  if (httpErr) {
    // Another status; no answer at all (refused, reset); or an answer that is not JSON-RPC.
    const unreadable = chain.some((e) => e instanceof SyntaxError) || /Expected \d+ responses/.test(String(httpErr.cause));
    if (status !== undefined) return new RpcError('server', `${where.url} answered ${status}: ${details.slice(0, 200)}`, status);
    if (unreadable) return new RpcError('server', `${where.url} answered no JSON-RPC: ${details.slice(0, 200)}`);
    return new RpcError('unreachable', `${where.url} did not answer: ${details}`);
  }
  return new RpcError('server', `${where.what}: ${details.slice(0, 300)}`);
}

/**
 * viem's request function over an RpcTransport (a test's fault-injecting one, Tron's gateway):
 * requests made in the same turn of the event loop go as one JSON-RPC batch, as viem's http
 * transport sends them, so a lagging replica answers a whole batch alike; answers are matched by id
 * (nodes may reorder them), JSON-RPC errors become RpcErrors of their kind.
 */
function batchingRequest(transport: RpcTransport, timeoutMs: number, stop: AbortSignal | undefined, stats: RpcStats) {
  let nextId = 1;
  let queue: { req: RpcRequest; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const settle = (item: (typeof queue)[number], r: RpcResponse | undefined) => {
    const method = item.req.method;
    if (!r || typeof r !== 'object') return item.reject(new RpcError('server', `no answer to ${method}`));
    if (r.error) {
      const message = typeof r.error.message === 'string' ? r.error.message : JSON.stringify(r.error);
      return item.reject(new RpcError(classifyRpcError(r.error.code, message), `${method}: ${message}`, r.error.code));
    }
    if (!('result' in r)) return item.reject(new RpcError('server', `${method}: answer without a result`));
    item.resolve(r.result);
  };
  const send = async (items: typeof queue) => {
    const started = performance.now();
    stats.calls++;
    try {
      if (stop?.aborted) throw new RpcError('unreachable', 'stopping');
      const body = items.length === 1 ? items[0]!.req : items.map((i) => i.req);
      const res = await transport(body, { timeoutMs, ...(stop ? { signal: stop } : {}) });
      if (!Array.isArray(res)) {
        if (items.length === 1) {
          if (res.id !== undefined && res.id !== null && res.id !== items[0]!.req.id)
            throw new RpcError('server', `${items[0]!.req.method}: answer to another request (${String(res.id)})`);
          return settle(items[0]!, res);
        }
        // A node that refuses batches (or the whole batch) answers one error object.
        throw new RpcError(
          res.error ? classifyRpcError(res.error.code, String(res.error.message)) : 'server',
          `batch refused: ${JSON.stringify(res).slice(0, 200)}`,
        );
      }
      if (items.length === 1) throw new RpcError('server', `${items[0]!.req.method}: a batch answer to a single call`);
      const byId = new Map(res.map((r) => [r.id, r]));
      for (const item of items) settle(item, byId.get(item.req.id));
    } catch (err) {
      for (const item of items) item.reject(err);
    } finally {
      stats.rpcMs += performance.now() - started;
    }
  };
  const flush = () => {
    const items = queue;
    queue = [];
    for (let i = 0; i < items.length; i += BATCH_SIZE) void send(items.slice(i, i + BATCH_SIZE));
  };
  return ({ method, params }: { method: string; params?: unknown }) =>
    new Promise<unknown>((resolve, reject) => {
      if (!queue.length) setTimeout(flush, 0);
      queue.push({ req: { jsonrpc: '2.0', id: nextId++, method, params: Array.isArray(params) ? params : [] }, resolve, reject });
    });
}

/** viem's http transport with the round trips counted; each body is read under the call's bound (viem's timeout, the stop). */
function countedFetch(stats: RpcStats): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    stats.calls++;
    try {
      const res = await fetch(input, init);
      const body = await res.arrayBuffer();
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      stats.rpcMs += performance.now() - started;
    }
  };
}

/**
 * A standard Ethereum JSON-RPC node (BSC, Polygon, anvil), read through viem's public client: over
 * HTTP (a URL: JSON-RPC batches, a timeout per call, no retry of viem's own, every call aborted at
 * the stop) or over an RpcTransport (viem's custom transport; tests put faults there, Tron its
 * gateway). viem's errors become RpcErrors so the watcher's range halving, back-off and staleness
 * work on them; the watcher's own checks (fork check, parsing guards) stay on top.
 */
export function evmClient(transport: RpcTransport | string, opts: { timeoutMs?: number; stop?: AbortSignal } = {}): EvmClient {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const stop = opts.stop;
  const stats: RpcStats = { rpcMs: 0, calls: 0 };
  const url = typeof transport === 'string' ? transport : 'the node';
  const viemTransport: Transport =
    typeof transport === 'string'
      ? http(transport, {
          batch: { batchSize: BATCH_SIZE },
          timeout: timeoutMs,
          retryCount: 0,
          fetchFn: countedFetch(stats),
          ...(stop ? { fetchOptions: { signal: stop } } : {}),
        })
      : custom({ request: batchingRequest(transport, timeoutMs, stop, stats) }, { retryCount: 0 });
  // cacheTime 0: a head or block number is always the node's answer now (viem keeps one for 4 s by default).
  const client = createPublicClient({ transport: viemTransport, cacheTime: 0 });

  /** Runs a read, its errors as RpcErrors; nothing starts once the process stops. */
  const read = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    if (stop?.aborted) throw new RpcError('unreachable', 'stopping');
    try {
      return await fn();
    } catch (err) {
      throw toRpcError(err, { url, timeoutMs, what });
    }
  };
  /** A block the node does not have is null (viem throws BlockNotFoundError for it). */
  const blockOrNull = <T>(p: Promise<T>): Promise<T | null> =>
    p.catch((err: unknown) => {
      if (causes(err).some((e) => e instanceof BlockNotFoundError)) return null;
      throw err;
    });
  // The hash and height read from the node's answer, not viem's formatted block: the fork check and
  // the quorum ask for hundreds of blocks a tick (custody bench).
  const blockAt = async (n: bigint): Promise<string | null> => {
    const b = (await client.request({ method: 'eth_getBlockByNumber', params: [quantityOf(n), false] })) as { hash?: unknown; number?: unknown } | null;
    if (!b) return null;
    if (typeof b.hash !== 'string' || typeof b.number !== 'string' || !/^0x[0-9a-fA-F]+$/.test(b.number) || BigInt(b.number) !== n)
      throw new RpcError('server', `block ${n} answered for another height`);
    return b.hash.toLowerCase();
  };
  const balance = (token: string, owner: string, at: bigint | null) =>
    client
      .readContract({
        address: token as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [owner as Address],
        ...(at === null ? {} : { blockNumber: at }),
      })
      .catch((err: unknown) => {
        // No code at the address (or an empty answer): nothing held there, as `0x` always read.
        if (causes(err).some((e) => e instanceof ContractFunctionZeroDataError)) return 0n;
        throw err;
      });

  let hasFinalized: boolean | undefined;
  return {
    rpc: stats,
    head: () => read('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 })),
    async finalizedHeight() {
      if (hasFinalized === false) return null;
      try {
        const b = await read('finalized block', () => blockOrNull(client.getBlock({ blockTag: 'finalized', includeTransactions: false })));
        hasFinalized = true;
        if (b && typeof b.number !== 'bigint') throw new RpcError('server', 'the finalized block has no number');
        return b ? b.number : null;
      } catch (err) {
        // A node without the tag says so with a JSON-RPC error; any other failure is a failure.
        if (err instanceof RpcError && err.kind === 'rpc' && hasFinalized === undefined) {
          hasFinalized = false;
          return null;
        }
        throw err;
      }
    },
    blockHashes: (numbers) =>
      read('eth_getBlockByNumber', async () => {
        const out = new Map<bigint, string>();
        const unique = [...new Set(numbers)];
        for (let i = 0; i < unique.length; i += CHUNK) {
          const chunk = unique.slice(i, i + CHUNK);
          // One batch: the calls are made in the same turn.
          const hashes = await Promise.all(chunk.map(blockAt));
          hashes.forEach((h, j) => h !== null && out.set(chunk[j]!, h));
        }
        return out;
      }),
    transferLogs: (from, to, token, toAddresses) =>
      read('eth_getLogs', async () => {
        // The logs and block `to` in one batch: a replica without `to` answers null there.
        // eth_getLogs through viem's transport but not its event decoding: parseTransferLogs checks
        // every field itself, and decoding 10,000 logs twice cost the watcher a third of its speed
        // (custody bench: 2,012 → 1,328 transfers/s).
        const topics = [TRANSFER_TOPIC, null, toAddresses ? toAddresses.map((a) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`) : null];
        const [raw, toHash] = await Promise.all([
          client.request({
            method: 'eth_getLogs',
            params: [{ address: token as Address, topics: topics as never, fromBlock: quantityOf(from), toBlock: quantityOf(to) }],
          }),
          blockAt(to),
        ]);
        if (!Array.isArray(raw)) throw new RpcError('server', 'eth_getLogs did not answer a list');
        const logs = (raw as RawLog[]).map((l) => ({
          ...l,
          blockNumber: typeof l?.blockNumber === 'string' && /^0x[0-9a-fA-F]+$/.test(l.blockNumber) ? BigInt(l.blockNumber) : null,
          logIndex: typeof l?.logIndex === 'string' && /^0x[0-9a-fA-F]+$/.test(l.logIndex) ? Number(l.logIndex) : null,
        }));
        return { logs: parseTransferLogs(logs, from, to, token, toAddresses ? new Set(toAddresses) : null), toHash };
      }),
    balanceOf: (token, owner, at) => read('balanceOf', () => balance(token, owner, at)),
    balancesOf: (token, owners, at) => read('balanceOf', () => Promise.all(owners.map((o) => balance(token, o, at)))),
    receipts: (txHashes) =>
      read('eth_getTransactionReceipt', async () => {
        const out: (Receipt | null)[] = [];
        for (let i = 0; i < txHashes.length; i += CHUNK) {
          const chunk = txHashes.slice(i, i + CHUNK);
          out.push(
            ...(await Promise.all(
              chunk.map((hash) =>
                // The node's answer read here rather than viem's formatted receipt: formatting 10,000
                // receipts with their logs cost the watcher a third of its speed (custody bench).
                client.request({ method: 'eth_getTransactionReceipt', params: [hash as Hash] }).then((raw): Receipt | null => {
                  if (raw === null || raw === undefined) return null;
                  const r = raw as { status?: unknown; blockNumber?: unknown; blockHash?: unknown; logs?: unknown };
                  const hexNum = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) ? BigInt(v) : null);
                  return {
                    status: r.status === '0x1' ? 'success' : r.status === '0x0' ? 'reverted' : null,
                    blockNumber: hexNum(r.blockNumber),
                    blockHash: typeof r.blockHash === 'string' ? r.blockHash.toLowerCase() : null,
                    logs: (Array.isArray(r.logs) ? (r.logs as RawLog[]) : []).map((l) => {
                      const index = hexNum(l?.logIndex);
                      return {
                        address: String(l?.address),
                        topics: Array.isArray(l?.topics) ? l.topics.map(String) : [],
                        data: String(l?.data),
                        logIndex: index === null ? null : Number(index),
                      };
                    }),
                  };
                }),
              ),
            )),
          );
        }
        return out;
      }),
  };
}
