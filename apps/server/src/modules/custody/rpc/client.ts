import {
  BaseError,
  BlockNotFoundError,
  ContractFunctionZeroDataError,
  createPublicClient,
  custom,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  http,
  HttpRequestError,
  multicall3Abi,
  ResponseBodyTooLargeError,
  RpcRequestError,
  TimeoutError,
  type Address,
  type Hex,
  type Transport,
} from 'viem';
import { getHttpRpcClient } from 'viem/utils';
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
const QUANTITY_RE = /^0x[0-9a-fA-F]+$/;
/** Multicall3's address, the same on every chain where it is deployed (BSC and Polygon since 2022). */
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
/** How long a node that lacked Multicall3 is read with plain eth_calls before it is asked again. */
const MULTICALL_RECHECK_MS = 10 * 60_000;
/** JSON-RPC requests in one HTTP batch at most (a batch of blocks or receipts is 100; balances up to 500) */
const BATCH_SIZE = 1_000;
/** blocks or receipts asked in one batch */
const CHUNK = 100;

/** A log as the node answers it (quantities as hex text): every field is checked before it is used. */
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
const hexQuantity = (v: unknown): bigint | null => (typeof v === 'string' && QUANTITY_RE.test(v) ? BigInt(v) : null);
const pad32 = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
const ADDRESS_TOPIC_RE = /^0x0{24}[0-9a-f]{40}$/;
const WORD_RE = /^0x[0-9a-fA-F]{64}$/;

/**
 * A balanceOf answer: its first 32-byte word (as ABI decoding reads a uint256); `0x`, what an
 * address without code answers, is nothing held there.
 */
function balanceWord(data: unknown, owner: string): bigint {
  if (data === '0x') return 0n;
  if (typeof data !== 'string' || !/^0x(?:[0-9a-fA-F]{2}){32,}$/.test(data))
    throw new RpcError('server', `balanceOf(${owner}) answered no uint256: ${String(data).slice(0, 80)}`);
  return BigInt(data.slice(0, 66));
}

/**
 * Reads a node's logs without trusting them: only the configured contract's `Transfer` with two
 * indexed addresses and one 32-byte amount counts (an ERC-721 Transfer has a third topic, a look-alike
 * token another address); a log outside the asked range or to an address not asked for is dropped
 * (the range that holds it reads it); a log without its block (pending) fails the read.
 */
export function parseTransferLogs(logs: unknown, from: bigint, to: bigint, token: string, toAddresses: Set<string> | null): TransferLog[] {
  if (!Array.isArray(logs)) throw new RpcError('server', 'eth_getLogs did not answer a list');
  const out: TransferLog[] = [];
  for (const l of logs as (RawLog | null)[]) {
    if (!l || typeof l !== 'object' || l.removed) continue;
    if (typeof l.address !== 'string' || l.address.toLowerCase() !== token) continue;
    const topics = l.topics;
    if (!Array.isArray(topics) || topics.length !== 3 || !topics.every((t) => typeof t === 'string')) continue;
    const [t0, t1, t2] = (topics as string[]).map((t) => t.toLowerCase()) as [string, string, string];
    if (t0 !== TRANSFER_TOPIC) continue;
    if (typeof l.data !== 'string' || !WORD_RE.test(l.data)) continue;
    const blockHash = typeof l.blockHash === 'string' ? l.blockHash.toLowerCase() : null;
    const txHash = typeof l.transactionHash === 'string' ? l.transactionHash.toLowerCase() : null;
    const blockNumber = hexQuantity(l.blockNumber);
    const index = hexQuantity(l.logIndex);
    if (!blockHash || !HASH_RE.test(blockHash) || !txHash || !HASH_RE.test(txHash) || blockNumber === null || index === null)
      throw new RpcError('server', 'a log without its block, transaction or index (pending?)');
    const logIndex = Number(index);
    if (!Number.isSafeInteger(logIndex)) throw new RpcError('server', `log index is not a number: ${String(l.logIndex)}`);
    if (blockNumber < from || blockNumber > to) continue;
    const recipient = `0x${t2.slice(-40)}`;
    if (toAddresses && !toAddresses.has(recipient)) continue;
    // Topics of addresses are 12 zero bytes and the address; anything else is not an ERC-20 transfer.
    if (!ADDRESS_TOPIC_RE.test(t2) || !ADDRESS_TOPIC_RE.test(t1)) continue;
    out.push({ blockNumber, blockHash, txHash, logIndex, token, from: `0x${t1.slice(-40)}`, to: recipient, raw: BigInt(l.data) });
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

/** One JSON-RPC call; `exchange` gives it its id. */
interface Call {
  method: string;
  params: unknown[];
}

/**
 * Sends calls as one HTTP round trip (one call alone, several as a JSON-RPC batch) and gives the
 * answers in the calls' order, matched by id (nodes may reorder them); a JSON-RPC error stays in
 * its answer, for the caller to sort. A batch refused whole, an answer missing or to another
 * request, and every failure of the round trip throw, as RpcErrors of their kind.
 */
type Exchange = (calls: Call[]) => Promise<RpcResponse[]>;

function exchangeOver(post: (body: RpcRequest | RpcRequest[]) => Promise<unknown>, stop: AbortSignal | undefined, stats: RpcStats): Exchange {
  let nextId = 1;
  return async (calls) => {
    if (!calls.length) return [];
    if (calls.length > BATCH_SIZE) throw new Error(`${calls.length} calls in one batch (at most ${BATCH_SIZE})`);
    const reqs: RpcRequest[] = calls.map((c) => ({ jsonrpc: '2.0', id: nextId++, method: c.method, params: c.params }));
    const started = performance.now();
    stats.calls++;
    let res: unknown;
    try {
      if (stop?.aborted) throw new RpcError('unreachable', 'stopping');
      res = await post(reqs.length === 1 ? reqs[0]! : reqs);
    } finally {
      stats.rpcMs += performance.now() - started;
    }
    if (reqs.length === 1) {
      const r = Array.isArray(res) ? undefined : (res as RpcResponse | null);
      if (Array.isArray(res)) throw new RpcError('server', `${reqs[0]!.method}: a batch answer to a single call`);
      if (r && typeof r === 'object' && r.id !== undefined && r.id !== null && r.id !== reqs[0]!.id)
        throw new RpcError('server', `${reqs[0]!.method}: answer to another request (${String(r.id)})`);
      return [r as RpcResponse];
    }
    if (!Array.isArray(res)) {
      // A node that refuses batches (or the whole batch) answers one error object.
      const e = (res as RpcResponse | null)?.error;
      throw new RpcError(e ? classifyRpcError(e.code, String(e.message)) : 'server', `batch refused: ${JSON.stringify(res).slice(0, 200)}`);
    }
    const answers = res as (RpcResponse | null)[];
    const byId = new Map(answers.map((r) => [r?.id, r]));
    const out = reqs.map((r) => byId.get(r.id));
    // A batch refused whole can come as its one error repeated (viem's HTTP client spreads it), with no id.
    const refused = out.includes(undefined) ? answers.find((r) => r?.error && (r.id === null || r.id === undefined)) : undefined;
    if (refused?.error)
      throw new RpcError(classifyRpcError(refused.error.code, String(refused.error.message)), `batch refused: ${JSON.stringify(refused).slice(0, 200)}`);
    return out as RpcResponse[];
  };
}

/** A call's result, or its JSON-RPC error as an RpcError of its kind. */
function resultOf(r: RpcResponse | undefined, method: string): unknown {
  if (!r || typeof r !== 'object') throw new RpcError('server', `no answer to ${method}`);
  if (r.error) {
    const message = typeof r.error.message === 'string' ? r.error.message : JSON.stringify(r.error);
    throw new RpcError(classifyRpcError(r.error.code, message), `${method}: ${message}`, r.error.code);
  }
  if (!('result' in r)) throw new RpcError('server', `${method}: answer without a result`);
  return r.result;
}

/**
 * viem's request function over an exchange (for viem's custom transport): requests made in the
 * same turn of the event loop go as one JSON-RPC batch, as viem's http transport sends them, so a
 * lagging replica answers a whole batch alike.
 */
function batchingRequest(exchange: Exchange) {
  let queue: { call: Call; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const send = async (items: typeof queue) => {
    try {
      const answers = await exchange(items.map((i) => i.call));
      items.forEach((item, j) => {
        try {
          item.resolve(resultOf(answers[j], item.call.method));
        } catch (err) {
          item.reject(err);
        }
      });
    } catch (err) {
      for (const item of items) item.reject(err);
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
      queue.push({ call: { method, params: Array.isArray(params) ? params : [] }, resolve, reject });
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
 * A standard Ethereum JSON-RPC node (BSC, Polygon, anvil). The watcher's reads (head, block
 * hashes, logs, receipts, balances) go as JSON-RPC batches straight through viem's HTTP RPC client
 * (its timeout, the stop's abort, its HTTP errors) or an RpcTransport (tests put faults there, Tron
 * its gateway), and the node's answers are checked field by field here: viem's public client costs
 * a promise chain, a dedupe key, a retry wrapper and a timer per call, which cut the custody bench's
 * credits by a quarter. viem's public client reads what is rare (the finalized block, one balance),
 * and viem's ABI coding the Multicall3 balances. viem's errors become RpcErrors so the watcher's
 * range halving, back-off and staleness work on them.
 *
 * Balances: where Multicall3 is deployed, one eth_call of aggregate3 reads a whole chunk of owners
 * (each sub-call allowed to fail alone); where it is not (eth_getCode empty at the height, asked in
 * the same batch), a JSON-RPC batch of balanceOf eth_calls. `multicall: false` never asks (Tron).
 */
export function evmClient(transport: RpcTransport | string, opts: { timeoutMs?: number; stop?: AbortSignal; multicall?: boolean } = {}): EvmClient {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const stop = opts.stop;
  const stats: RpcStats = { rpcMs: 0, calls: 0 };
  const url = typeof transport === 'string' ? transport : 'the node';
  let exchange: Exchange;
  let viemTransport: Transport;
  if (typeof transport === 'string') {
    const rpcClient = getHttpRpcClient(transport, { timeout: timeoutMs, ...(stop ? { fetchOptions: { signal: stop } } : {}) });
    exchange = exchangeOver((body) => rpcClient.request({ body }), stop, stats);
    viemTransport = http(transport, {
      batch: { batchSize: BATCH_SIZE },
      timeout: timeoutMs,
      retryCount: 0,
      fetchFn: countedFetch(stats),
      ...(stop ? { fetchOptions: { signal: stop } } : {}),
    });
  } else {
    exchange = exchangeOver((body) => transport(body, { timeoutMs, ...(stop ? { signal: stop } : {}) }), stop, stats);
    viemTransport = custom({ request: batchingRequest(exchange) }, { retryCount: 0 });
  }
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
  /** The calls' results in their order; any JSON-RPC error fails the whole read. */
  const batch = async (calls: Call[]): Promise<unknown[]> => (await exchange(calls)).map((r, j) => resultOf(r, calls[j]!.method));
  /** A block's hash from the node's answer, checked to be of the asked height (null: the node lacks it). */
  const blockHash = (b: unknown, n: bigint): string | null => {
    if (b === null || b === undefined) return null;
    const block = b as { hash?: unknown; number?: unknown };
    if (typeof block.hash !== 'string' || !HASH_RE.test(block.hash.toLowerCase()) || hexQuantity(block.number) !== n)
      throw new RpcError('server', `block ${n} answered for another height`);
    return block.hash.toLowerCase();
  };
  const blockCall = (n: bigint): Call => ({ method: 'eth_getBlockByNumber', params: [quantityOf(n), false] });
  const atTag = (at: bigint | null) => (at === null ? 'latest' : quantityOf(at));
  const balanceCall = (token: string, owner: string, at: bigint | null): Call => ({
    method: 'eth_call',
    params: [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] }) }, atTag(at)],
  });
  /** Balances by a JSON-RPC batch of balanceOf eth_calls (any failed call fails the batch). */
  const plainBalances = async (token: string, owners: string[], at: bigint | null) =>
    (await batch(owners.map((o) => balanceCall(token, o, at)))).map((r, j) => balanceWord(r, owners[j]!));
  /** When this node last lacked Multicall3 (it is read with plain eth_calls until MULTICALL_RECHECK_MS later). */
  let multicallAbsentAt = opts.multicall === false ? Infinity : -Infinity;
  const multicallBalances = async (token: string, owners: string[], at: bigint | null): Promise<bigint[]> => {
    const calls = owners.map((o) => ({
      target: token as Address,
      allowFailure: true,
      callData: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [o as Address] }),
    }));
    const data = encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] });
    // The code asked in the same batch, at the same height: an address without code answers an eth_call with `0x`.
    const [code, answer] = await batch([
      { method: 'eth_getCode', params: [MULTICALL3, atTag(at)] },
      { method: 'eth_call', params: [{ to: MULTICALL3, data }, atTag(at)] },
    ]);
    if (typeof code !== 'string' || code === '0x' || code === '0x0') {
      multicallAbsentAt = performance.now();
      return plainBalances(token, owners, at);
    }
    let results: readonly { success: boolean; returnData: Hex }[];
    try {
      results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: answer as Hex });
    } catch (err) {
      throw new RpcError('server', `Multicall3 aggregate3 answered what it cannot: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
    }
    if (results.length !== owners.length) throw new RpcError('server', `Multicall3 answered ${results.length} results for ${owners.length} calls`);
    const out: (bigint | null)[] = results.map((r, j) => (r.success ? balanceWord(r.returnData, owners[j]!) : null));
    // A sub-call that failed spoils none of the others: its owner alone is asked again by a plain eth_call.
    const failed = out.flatMap((v, j) => (v === null ? [j] : []));
    if (failed.length) {
      const again = await plainBalances(
        token,
        failed.map((j) => owners[j]!),
        at,
      );
      failed.forEach((j, k) => (out[j] = again[k]!));
    }
    return out as bigint[];
  };

  let hasFinalized: boolean | undefined;
  return {
    rpc: stats,
    head: () =>
      read('eth_blockNumber', async () => {
        const [n] = await batch([{ method: 'eth_blockNumber', params: [] }]);
        const head = hexQuantity(n);
        if (head === null) throw new RpcError('server', `eth_blockNumber is not a hex quantity: ${String(n).slice(0, 80)}`);
        return head;
      }),
    async finalizedHeight() {
      if (hasFinalized === false) return null;
      try {
        const b = await read('finalized block', () =>
          client.getBlock({ blockTag: 'finalized', includeTransactions: false }).catch((err: unknown) => {
            // A node without a finalized block yet answers null, which viem throws as BlockNotFoundError.
            if (causes(err).some((e) => e instanceof BlockNotFoundError)) return null;
            throw err;
          }),
        );
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
          const blocks = await batch(chunk.map(blockCall));
          blocks.forEach((b, j) => {
            const h = blockHash(b, chunk[j]!);
            if (h !== null) out.set(chunk[j]!, h);
          });
        }
        return out;
      }),
    transferLogs: (from, to, token, toAddresses) =>
      read('eth_getLogs', async () => {
        // The logs and block `to` in one batch: a replica without `to` answers null there.
        const topics = [TRANSFER_TOPIC, null, toAddresses ? toAddresses.map(pad32) : null];
        const [raw, top] = await batch([
          { method: 'eth_getLogs', params: [{ address: token, topics, fromBlock: quantityOf(from), toBlock: quantityOf(to) }] },
          blockCall(to),
        ]);
        const toHash = blockHash(top, to);
        return { logs: parseTransferLogs(raw, from, to, token, toAddresses ? new Set(toAddresses) : null), toHash };
      }),
    balanceOf: (token, owner, at) =>
      read('balanceOf', () =>
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
          }),
      ),
    balancesOf: (token, owners, at) =>
      read('balanceOf', () =>
        performance.now() - multicallAbsentAt < MULTICALL_RECHECK_MS ? plainBalances(token, owners, at) : multicallBalances(token, owners, at),
      ),
    receipts: (txHashes) =>
      read('eth_getTransactionReceipt', async () => {
        const out: (Receipt | null)[] = [];
        for (let i = 0; i < txHashes.length; i += CHUNK) {
          const chunk = txHashes.slice(i, i + CHUNK);
          const answers = await batch(chunk.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })));
          for (const raw of answers) out.push(receiptOf(raw));
        }
        return out;
      }),
  };
}

/** A receipt as the node answered it, each field read only if it has its form (the quorum compares them with the claim). */
function receiptOf(raw: unknown): Receipt | null {
  if (raw === null || raw === undefined) return null;
  const r = raw as { status?: unknown; blockNumber?: unknown; blockHash?: unknown; logs?: unknown };
  return {
    status: r.status === '0x1' ? 'success' : r.status === '0x0' ? 'reverted' : null,
    blockNumber: hexQuantity(r.blockNumber),
    blockHash: typeof r.blockHash === 'string' ? r.blockHash.toLowerCase() : null,
    logs: (Array.isArray(r.logs) ? (r.logs as (RawLog | null)[]) : []).map((l) => {
      const index = hexQuantity(l?.logIndex);
      return {
        address: String(l?.address),
        topics: Array.isArray(l?.topics) ? l.topics.map(String) : [],
        data: String(l?.data),
        logIndex: index === null ? null : Number(index),
      };
    }),
  };
}
