import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { displayAddress, addressHex } from '../../modules/custody/derive';
import { TRANSFER_TOPIC } from '../../modules/custody/rpc/client';

/** Tron's solidity node: a block is solidified once it has 19 confirmations (head − 18). */
export const SOLIDIFIED_AFTER = 19;

/** JSON-RPC methods java-tron's read-only `/jsonrpc` serves (the rest of the Ethereum API it refuses). */
const JSONRPC_METHODS = new Set([
  'eth_blockNumber',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getLogs',
  'eth_getTransactionReceipt',
  'eth_call',
  'eth_chainId',
  'net_version',
]);

export interface TronFake {
  url: string;
  /** the next `n` requests answer this status (429 with TronGrid's rate-limit body, or a 5xx) */
  fail(n: number, status: 429 | 500 | 502 | 503): void;
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

type Rpc = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };

/**
 * A Tron full node and TronGrid in front of a local EVM chain (anvil), following their documented
 * contracts closely enough for the watcher, the tests and `npm run demo:chain`:
 * - `POST /jsonrpc`: the read-only Ethereum-style JSON-RPC of java-tron (blocks, logs, eth_call at
 *   `latest` only; no `finalized`/`safe` tags; single calls and batches), passed to anvil;
 * - `/wallet/getnowblock` and `/walletsolidity/getnowblock`: the head and the solidified block
 *   (19 confirmations), as `{blockID, block_header: {raw_data: {number, timestamp}}}`;
 * - `GET /v1/accounts/{T…}/transactions/trc20?only_confirmed=true&contract_address=T…`: TronGrid's
 *   TRC-20 history of an account (T… addresses, values as decimal strings, newest first),
 *   `only_confirmed` keeping to solidified blocks;
 * - switches for 429 (TronGrid's rate limit) and 5xx answers.
 */
export async function startTronFake(evmUrl: string, opts: { port?: number } = {}): Promise<TronFake> {
  let failures: { n: number; status: number } = { n: 0, status: 0 };
  const requests: TronFake['requests'] = [];
  const evm = async (body: unknown): Promise<unknown> => {
    const res = await fetch(evmUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return res.json();
  };
  const evmCall = async <T>(method: string, params: unknown[]): Promise<T> => ((await evm({ jsonrpc: '2.0', id: 1, method, params })) as { result: T }).result;
  const head = async () => BigInt(await evmCall<string>('eth_blockNumber', []));
  const blockJson = async (n: bigint) => {
    const b = await evmCall<{ hash: string; number: string; timestamp: string }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    return { blockID: b.hash.slice(2), block_header: { raw_data: { number: Number(BigInt(b.number)), timestamp: Number(BigInt(b.timestamp)) * 1000 } } };
  };
  const solidified = async () => {
    const h = await head();
    return h - BigInt(SOLIDIFIED_AFTER - 1) > 0n ? h - BigInt(SOLIDIFIED_AFTER - 1) : 0n;
  };

  const jsonrpc = async (req: Rpc): Promise<unknown> => {
    const id = req.id ?? null;
    if (!req.method || !JSONRPC_METHODS.has(req.method))
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `the method ${req.method} does not exist/is not available` } };
    const params = req.params ?? [];
    const tag = req.method === 'eth_getBlockByNumber' ? params[0] : req.method === 'eth_call' ? params[1] : undefined;
    if (tag === 'finalized' || tag === 'safe' || tag === 'pending')
      return { jsonrpc: '2.0', id, error: { code: -32602, message: `invalid block number: ${String(tag)}` } };
    if (req.method === 'eth_call' && tag !== undefined && tag !== 'latest')
      return { jsonrpc: '2.0', id, error: { code: -32602, message: 'QUANTITY not supported, just support TAG as latest' } };
    return evm({ jsonrpc: '2.0', id, method: req.method, params });
  };

  const trc20History = async (url: URL, account: string): Promise<unknown> => {
    const hex = addressHex('tron', account);
    if (!hex) return { success: false, error: 'invalid address' };
    const contract = url.searchParams.get('contract_address');
    const contractHex = contract ? addressHex('tron', contract) : null;
    const onlyConfirmed = url.searchParams.get('only_confirmed') === 'true';
    const limit = Math.min(200, Number(url.searchParams.get('limit') ?? 20));
    const to = onlyConfirmed ? await solidified() : await head();
    const topic = `0x${hex.slice(2).padStart(64, '0')}`;
    const filter = (topics: (string | null)[]) => ({
      fromBlock: '0x0',
      toBlock: `0x${to.toString(16)}`,
      ...(contractHex ? { address: contractHex } : {}),
      topics,
    });
    const logs = [
      ...(await evmCall<Record<string, string | string[]>[]>('eth_getLogs', [filter([TRANSFER_TOPIC, topic])])),
      ...(await evmCall<Record<string, string | string[]>[]>('eth_getLogs', [filter([TRANSFER_TOPIC, null, topic])])),
    ];
    const rows = [];
    for (const l of logs) {
      const topics = l.topics as string[];
      const block = await evmCall<{ timestamp: string }>('eth_getBlockByHash', [l.blockHash, false]);
      rows.push({
        transaction_id: String(l.transactionHash).slice(2),
        token_info: { symbol: 'USDT', address: displayAddress('tron', String(l.address).toLowerCase()), decimals: 6, name: 'Tether USD' },
        block_timestamp: Number(BigInt(block.timestamp)) * 1000,
        from: displayAddress('tron', `0x${topics[1]!.slice(-40)}`),
        to: displayAddress('tron', `0x${topics[2]!.slice(-40)}`),
        type: 'Transfer',
        value: BigInt(String(l.data)).toString(),
      });
    }
    rows.sort((a, b) => b.block_timestamp - a.block_timestamp);
    return { data: rows.slice(0, limit), success: true, meta: { at: Date.now(), page_size: Math.min(limit, rows.length) } };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ method: req.method ?? 'GET', path: url.pathname });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (failures.n > 0) {
      failures.n--;
      if (failures.status === 429) return send(429, { Error: 'The key exceeds the frequency limit(15), and the query server is suspended for 5s' });
      return send(failures.status, { Error: 'server error' });
    }
    let text = '';
    for await (const chunk of req) text += String(chunk);
    try {
      if (url.pathname === '/jsonrpc' && req.method === 'POST') {
        const body = JSON.parse(text) as Rpc | Rpc[];
        return send(200, Array.isArray(body) ? await Promise.all(body.map(jsonrpc)) : await jsonrpc(body));
      }
      if (url.pathname === '/wallet/getnowblock') return send(200, await blockJson(await head()));
      if (url.pathname === '/walletsolidity/getnowblock') return send(200, await blockJson(await solidified()));
      const m = /^\/v1\/accounts\/([^/]+)\/transactions\/trc20$/.exec(url.pathname);
      if (m && req.method === 'GET') return send(200, await trc20History(url, decodeURIComponent(m[1]!)));
      return send(404, { Error: `no such path ${url.pathname}` });
    } catch (err) {
      return send(500, { Error: err instanceof Error ? err.message : String(err) });
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  // A port taken by something else is an error to report, not a wait (the demo names its ports).
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (n, status) => {
      failures = { n, status };
    },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
