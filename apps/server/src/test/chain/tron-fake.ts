import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak256, toFunctionSelector } from 'viem';
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

/** A transaction the fake built or took: its txID and, once broadcast, the anvil transaction it became. */
interface FakeTx {
  expiration: number;
  evmHash?: string;
  /** a TRX transfer (TransferContract), whose transaction info carries no contract result */
  trx?: boolean;
}

export interface TronFake {
  url: string;
  /** txID → what the fake knows of it (built by triggersmartcontract, executed by broadcasttransaction) */
  transactions: Map<string, FakeTx>;
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
 * - `/wallet/triggersmartcontract` (an unsigned transaction: raw_data, raw_data_hex as protobuf
 *   Transaction.raw, txID its sha256; expiration the head block's time + 60 s, as java-tron),
 *   `/wallet/createtransaction` (an unsigned TRX transfer, TransferContract, built the same way; no
 *   fee_limit; an accepted one moves anvil's wei, 10^12 per sun),
 *   `/wallet/broadcasttransaction` (the txID recomputed from raw_data, the secp256k1 signature over it
 *   recovered to the owner's address or SIGERROR, TRANSACTION_EXPIRATION_ERROR once the head block is
 *   past the expiration, DUP_TRANSACTION_ERROR the second time; an accepted one is executed on anvil
 *   from the owner's 20 bytes with anvil_impersonateAccount, so its Transfer log is where the watcher
 *   reads it), `/wallet/gettransactioninfobyid` (`{}` until mined; then blockNumber, receipt.result
 *   SUCCESS or REVERT, the logs with 20-byte addresses and unprefixed hex; a TRX transfer's receipt has
 *   its bandwidth only, no result, as java-tron), `/wallet/getaccount` (TRX
 *   in sun: anvil's wei / 10^12) and `/wallet/triggerconstantcontract` (eth_call);
 * - the JSON-RPC answers a Tron transaction by its txID (eth_getTransactionReceipt takes it, and
 *   receipts and logs carry it as transactionHash), as java-tron does;
 * - switches for 429 (TronGrid's rate limit) and 5xx answers.
 */
export async function startTronFake(evmUrl: string, opts: { port?: number } = {}): Promise<TronFake> {
  let failures: { n: number; status: number } = { n: 0, status: 0 };
  const requests: TronFake['requests'] = [];
  const transactions = new Map<string, FakeTx>();
  const txIdOfEvm = new Map<string, string>();
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
    if (req.method === 'eth_getTransactionReceipt') {
      const asked = String(params[0] ?? '')
        .replace(/^0x/, '')
        .toLowerCase();
      const mapped = transactions.get(asked)?.evmHash;
      const out = (await evm({ jsonrpc: '2.0', id, method: req.method, params: [mapped ?? params[0]] })) as { result?: Record<string, unknown> | null };
      return out.result ? { ...out, result: withTxIds(out.result) } : out;
    }
    if (req.method === 'eth_getLogs') {
      const out = (await evm({ jsonrpc: '2.0', id, method: req.method, params })) as { result?: Record<string, unknown>[] };
      return Array.isArray(out.result) ? { ...out, result: out.result.map(withTxId) } : out;
    }
    return evm({ jsonrpc: '2.0', id, method: req.method, params });
  };
  /** A transaction the fake executed answers by its Tron txID (0x-prefixed in JSON-RPC, as java-tron). */
  const withTxId = <T extends Record<string, unknown>>(o: T): T => {
    const txId = txIdOfEvm.get(String(o.transactionHash).toLowerCase());
    return txId ? { ...o, transactionHash: `0x${txId}` } : o;
  };
  const withTxIds = (r: Record<string, unknown>) => ({ ...withTxId(r), logs: ((r.logs as Record<string, unknown>[]) ?? []).map(withTxId) });

  const hexOf = (address: string): string => {
    const h = address.startsWith('T') ? addressHex('tron', address) : `0x${address.replace(/^(0x)?41/, '')}`;
    if (!h || !/^0x[0-9a-f]{40}$/i.test(h)) throw new Error(`invalid address ${address}`);
    return h.toLowerCase();
  };
  const tronHex = (address: string) => `41${hexOf(address).slice(2)}`;
  const messageHex = (text: string) => Buffer.from(text).toString('hex');
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

  const triggerSmartContract = async (b: Record<string, unknown>) => {
    const owner = tronHex(String(b.owner_address));
    const contract = tronHex(String(b.contract_address));
    const data = b.data ? String(b.data) : `${toFunctionSelector(String(b.function_selector)).slice(2)}${String(b.parameter ?? '')}`;
    const h = await head();
    const block = await evmCall<{ hash: string; timestamp: string }>('eth_getBlockByNumber', [`0x${h.toString(16)}`, false]);
    const time = Number(BigInt(block.timestamp)) * 1000;
    const raw_data = {
      contract: [
        {
          parameter: { value: { data, owner_address: owner, contract_address: contract }, type_url: 'type.googleapis.com/protocol.TriggerSmartContract' },
          type: 'TriggerSmartContract',
        },
      ],
      ref_block_bytes: h.toString(16).padStart(16, '0').slice(12),
      ref_block_hash: block.hash.slice(2 + 16, 2 + 32),
      expiration: time + 60_000,
      fee_limit: Number(b.fee_limit ?? 0),
      timestamp: time,
    };
    const rawHex = encodeRaw(raw_data).toString('hex');
    const txID = sha256(Buffer.from(rawHex, 'hex')).toString('hex');
    transactions.set(txID, { expiration: raw_data.expiration });
    return { result: { result: true }, transaction: { visible: false, txID, raw_data, raw_data_hex: rawHex } };
  };

  const createTransaction = async (b: Record<string, unknown>) => {
    const owner = tronHex(String(b.owner_address));
    const to = tronHex(String(b.to_address));
    const amount = Number(b.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0) return { Error: 'class java.lang.IllegalArgumentException : amount must be greater than 0' };
    const h = await head();
    const block = await evmCall<{ hash: string; timestamp: string }>('eth_getBlockByNumber', [`0x${h.toString(16)}`, false]);
    const time = Number(BigInt(block.timestamp)) * 1000;
    const raw_data: RawData = {
      contract: [
        {
          parameter: { value: { amount, owner_address: owner, to_address: to }, type_url: 'type.googleapis.com/protocol.TransferContract' },
          type: 'TransferContract',
        },
      ],
      ref_block_bytes: h.toString(16).padStart(16, '0').slice(12),
      ref_block_hash: block.hash.slice(2 + 16, 2 + 32),
      expiration: time + 60_000,
      timestamp: time,
    };
    const rawHex = encodeRaw(raw_data).toString('hex');
    const txID = sha256(Buffer.from(rawHex, 'hex')).toString('hex');
    transactions.set(txID, { expiration: raw_data.expiration, trx: true });
    return { visible: false, txID, raw_data, raw_data_hex: rawHex };
  };

  const broadcast = async (tx: { txID?: string; raw_data?: RawData; signature?: string[] }) => {
    if (!tx.raw_data || !tx.txID) return { result: false, code: 'OTHER_ERROR', message: messageHex('no transaction') };
    const txid = sha256(encodeRaw(tx.raw_data)).toString('hex');
    const refuse = (code: string, text: string) => ({ code, txid, message: messageHex(text) });
    if (txid !== tx.txID.toLowerCase()) return refuse('SIGERROR', 'Validate signature error: the txID is not the hash of raw_data');
    const value = tx.raw_data.contract[0]!.parameter.value;
    const sig = tx.signature?.[0] ?? '';
    let signer: string | null = null;
    if (/^[0-9a-fA-F]{130}$/.test(sig)) {
      const bytes = Buffer.from(sig, 'hex');
      const v = bytes[64]! >= 27 ? bytes[64]! - 27 : bytes[64]!;
      try {
        const pub = secp256k1.recoverPublicKey(new Uint8Array([v, ...bytes.subarray(0, 64)]), Buffer.from(txid, 'hex'), { prehash: false });
        const full = secp256k1.Point.fromBytes(pub).toBytes(false);
        signer = `41${keccak256(full.slice(1)).slice(-40)}`;
      } catch {
        signer = null;
      }
    }
    if (signer !== tronHex(value.owner_address)) return refuse('SIGERROR', 'Validate signature error: the signature is not the owner address');
    const known = transactions.get(txid);
    if (known?.evmHash) return refuse('DUP_TRANSACTION_ERROR', 'Dup transaction');
    const block = await evmCall<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
    if (Number(BigInt(block.timestamp)) * 1000 > tx.raw_data.expiration) return refuse('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired');
    const from = hexOf(value.owner_address);
    const trx = 'amount' in value;
    await evmCall('anvil_impersonateAccount', [from]);
    try {
      const evmHash = await evmCall<string | undefined>('eth_sendTransaction', [
        trx
          ? { from, to: hexOf(value.to_address), value: `0x${(BigInt(value.amount) * 10n ** 12n).toString(16)}`, gas: '0x5208' }
          : { from, to: hexOf(value.contract_address), data: `0x${value.data}`, gas: '0x30d40' },
      ]);
      if (!evmHash) return refuse('CONTRACT_VALIDATE_ERROR', trx ? 'balance is not sufficient' : 'the chain refused the call');
      transactions.set(txid, { expiration: tx.raw_data.expiration, evmHash: evmHash.toLowerCase(), trx });
      txIdOfEvm.set(evmHash.toLowerCase(), txid);
    } finally {
      await evmCall('anvil_stopImpersonatingAccount', [from]);
    }
    return { result: true, txid };
  };

  const transactionInfo = async (b: { value?: string }) => {
    const txid = String(b.value ?? '').toLowerCase();
    const evmHash = transactions.get(txid)?.evmHash;
    if (!evmHash) return {};
    const r = await evmCall<{
      status: string;
      blockNumber: string;
      blockHash: string;
      to: string;
      gasUsed: string;
      logs: { address: string; topics: string[]; data: string }[];
    } | null>('eth_getTransactionReceipt', [evmHash]);
    if (!r) return {};
    const block = await evmCall<{ timestamp: string }>('eth_getBlockByHash', [r.blockHash, false]);
    if (transactions.get(txid)?.trx)
      return {
        id: txid,
        blockNumber: Number(BigInt(r.blockNumber)),
        blockTimeStamp: Number(BigInt(block.timestamp)) * 1000,
        contractResult: [''],
        receipt: { net_usage: 268 },
      };
    const ok = r.status === '0x1';
    return {
      id: txid,
      fee: 0,
      blockNumber: Number(BigInt(r.blockNumber)),
      blockTimeStamp: Number(BigInt(block.timestamp)) * 1000,
      contractResult: [''],
      contract_address: `41${r.to.slice(2).toLowerCase()}`,
      receipt: { energy_usage_total: Number(BigInt(r.gasUsed)), result: ok ? 'SUCCESS' : 'REVERT' },
      ...(ok ? {} : { result: 'FAILED', resMessage: messageHex('REVERT opcode executed') }),
      log: r.logs.map((l) => ({
        address: l.address.slice(2).toLowerCase(),
        topics: l.topics.map((t) => t.slice(2).toLowerCase()),
        data: l.data.slice(2).toLowerCase(),
      })),
    };
  };

  const account = async (b: { address?: string }) => {
    const wei = BigInt(await evmCall<string>('eth_getBalance', [hexOf(String(b.address)), 'latest']));
    const sun = wei / 10n ** 12n;
    return sun === 0n ? {} : { address: tronHex(String(b.address)), balance: Number(sun) };
  };

  const constantCall = async (b: Record<string, unknown>) => {
    const data = b.data ? String(b.data) : `${toFunctionSelector(String(b.function_selector)).slice(2)}${String(b.parameter ?? '')}`;
    const out = await evmCall<string>('eth_call', [
      { from: hexOf(String(b.owner_address)), to: hexOf(String(b.contract_address)), data: `0x${data}` },
      'latest',
    ]);
    return { result: { result: true }, constant_result: [out.slice(2)] };
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
      const body = () => (text ? (JSON.parse(text) as Record<string, unknown>) : {});
      if (url.pathname === '/wallet/triggersmartcontract') return send(200, await triggerSmartContract(body()));
      if (url.pathname === '/wallet/createtransaction') return send(200, await createTransaction(body()));
      if (url.pathname === '/wallet/broadcasttransaction') return send(200, await broadcast(body()));
      if (url.pathname === '/wallet/gettransactioninfobyid') return send(200, await transactionInfo(body()));
      if (url.pathname === '/wallet/getaccount') return send(200, await account(body()));
      if (url.pathname === '/wallet/triggerconstantcontract') return send(200, await constantCall(body()));
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
    transactions,
    fail: (n, status) => {
      failures = { n, status };
    },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type ContractValue = { data: string; owner_address: string; contract_address: string } | { amount: number; owner_address: string; to_address: string };
interface RawData {
  contract: { parameter: { value: ContractValue; type_url: string }; type: string }[];
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  fee_limit?: number;
  timestamp: number;
}

/**
 * protobuf Transaction.raw with one TriggerSmartContract or TransferContract (java-tron's Tron.proto
 * field numbers), as the node encodes it.
 */
function encodeRaw(r: RawData): Buffer {
  const varint = (n: number | bigint) => {
    const out: number[] = [];
    let v = BigInt(n);
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    out.push(Number(v));
    return Buffer.from(out);
  };
  const field = (n: number, wire: number) => varint((n << 3) | wire);
  const len = (n: number, b: Buffer) => (b.length ? Buffer.concat([field(n, 2), varint(b.length), b]) : Buffer.alloc(0));
  const num = (n: number, v: number) => (v ? Buffer.concat([field(n, 0), varint(v)]) : Buffer.alloc(0));
  const hex = (h: string) => Buffer.from(h.replace(/^0x/, ''), 'hex');
  const c = r.contract[0]!;
  const v = c.parameter.value;
  const body =
    'amount' in v
      ? Buffer.concat([len(1, hex(v.owner_address)), len(2, hex(v.to_address)), num(3, v.amount)])
      : Buffer.concat([len(1, hex(v.owner_address)), len(2, hex(v.contract_address)), len(4, hex(v.data))]);
  const any = Buffer.concat([len(1, Buffer.from(c.parameter.type_url)), len(2, body)]);
  const contract = Buffer.concat([num(1, c.type === 'TriggerSmartContract' ? 31 : c.type === 'TransferContract' ? 1 : 0), len(2, any)]);
  return Buffer.concat([
    len(1, hex(r.ref_block_bytes)),
    len(4, hex(r.ref_block_hash)),
    num(8, r.expiration),
    len(11, contract),
    num(14, r.timestamp),
    num(18, r.fee_limit ?? 0),
  ]);
}
