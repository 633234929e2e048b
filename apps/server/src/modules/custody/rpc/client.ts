import { httpTransport, JsonRpc, RpcError, type RpcTransport } from './json-rpc';

/** keccak-256 of `Transfer(address,address,uint256)`: topic 0 of every ERC-20 / TRC-20 transfer. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const BALANCE_OF = '0x70a08231';

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

/** What a watcher asks of a node; one implementation per kind of node (EVM JSON-RPC, Tron). */
export interface ChainClient {
  readonly rpc: JsonRpc;
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
}

const hex = (n: bigint) => `0x${n.toString(16)}`;
const pad32 = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
const HASH_RE = /^0x[0-9a-f]{64}$/;

function quantity(v: unknown, what: string): bigint {
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]+$/.test(v)) throw new RpcError('server', `${what} is not a hex quantity: ${String(v)}`);
  return BigInt(v);
}

interface RawLog {
  address?: string;
  topics?: string[];
  data?: string;
  blockNumber?: string;
  blockHash?: string;
  transactionHash?: string;
  logIndex?: string;
  removed?: boolean;
}

/**
 * Reads a node's logs without trusting them: only the configured contract's `Transfer` with two
 * indexed addresses and one 32-byte amount counts (an ERC-721 Transfer has a third topic, a look-alike
 * token another address); a log outside the asked range or to an address not asked for is dropped
 * (the range that holds it reads it); a log without its block (pending) fails the read.
 */
export function parseTransferLogs(raw: unknown, from: bigint, to: bigint, token: string, toAddresses: Set<string> | null): TransferLog[] {
  if (!Array.isArray(raw)) throw new RpcError('server', 'eth_getLogs did not answer a list');
  const out: TransferLog[] = [];
  for (const l of raw as RawLog[]) {
    if (!l || typeof l !== 'object' || l.removed) continue;
    if (typeof l.address !== 'string' || l.address.toLowerCase() !== token) continue;
    const topics = l.topics;
    if (!Array.isArray(topics) || topics.length !== 3 || topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
    if (typeof l.data !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(l.data)) continue;
    const blockHash = l.blockHash?.toLowerCase();
    const txHash = l.transactionHash?.toLowerCase();
    if (!blockHash || !HASH_RE.test(blockHash) || !txHash || !HASH_RE.test(txHash) || l.blockNumber == null || l.logIndex == null)
      throw new RpcError('server', 'a log without its block, transaction or index (pending?)');
    const blockNumber = quantity(l.blockNumber, 'log blockNumber');
    if (blockNumber < from || blockNumber > to) continue;
    const recipient = `0x${topics[2]!.toLowerCase().slice(-40)}`;
    if (toAddresses && !toAddresses.has(recipient)) continue;
    // Topics of addresses are 12 zero bytes and the address; anything else is not an ERC-20 transfer.
    if (!/^0x0{24}[0-9a-f]{40}$/.test(topics[2]!.toLowerCase()) || !/^0x0{24}[0-9a-f]{40}$/.test(topics[1]!.toLowerCase())) continue;
    out.push({
      blockNumber,
      blockHash,
      txHash,
      logIndex: Number(quantity(l.logIndex, 'logIndex')),
      token,
      from: `0x${topics[1]!.toLowerCase().slice(-40)}`,
      to: recipient,
      raw: BigInt(l.data),
    });
  }
  return out;
}

/** A standard Ethereum JSON-RPC node (BSC, Polygon, anvil). */
export function evmClient(transport: RpcTransport | string, opts: { timeoutMs?: number; stop?: AbortSignal } = {}): ChainClient {
  const rpc = new JsonRpc(typeof transport === 'string' ? httpTransport(transport) : transport, opts.timeoutMs, opts.stop);
  let hasFinalized: boolean | undefined;
  return {
    rpc,
    async head() {
      return quantity(await rpc.call('eth_blockNumber', []), 'eth_blockNumber');
    },
    async finalizedHeight() {
      if (hasFinalized === false) return null;
      try {
        const b = await rpc.call<{ number?: string } | null>('eth_getBlockByNumber', ['finalized', false]);
        hasFinalized = true;
        return b ? quantity(b.number, 'finalized block number') : null;
      } catch (err) {
        // A node without the tag says so with a JSON-RPC error; any other failure is a failure.
        if (err instanceof RpcError && err.kind === 'rpc' && hasFinalized === undefined) {
          hasFinalized = false;
          return null;
        }
        throw err;
      }
    },
    async blockHashes(numbers) {
      const out = new Map<bigint, string>();
      const unique = [...new Set(numbers)];
      for (let i = 0; i < unique.length; i += 100) {
        const chunk = unique.slice(i, i + 100);
        const blocks = await rpc.batch<{ hash?: string; number?: string } | null>(
          chunk.map((n) => ({ method: 'eth_getBlockByNumber', params: [hex(n), false] })),
        );
        blocks.forEach((b, j) => {
          if (!b) return;
          if (typeof b.hash !== 'string' || quantity(b.number, 'block number') !== chunk[j])
            throw new RpcError('server', `block ${chunk[j]} answered for another height`);
          out.set(chunk[j]!, b.hash.toLowerCase());
        });
      }
      return out;
    },
    async transferLogs(from, to, token, toAddresses) {
      const filter = { fromBlock: hex(from), toBlock: hex(to), address: token, topics: [TRANSFER_TOPIC, null, toAddresses ? toAddresses.map(pad32) : null] };
      const [raw, top] = await rpc.batch<unknown>([
        { method: 'eth_getLogs', params: [filter] },
        { method: 'eth_getBlockByNumber', params: [hex(to), false] },
      ]);
      const block = top as { hash?: string; number?: string } | null;
      if (block && (typeof block.hash !== 'string' || quantity(block.number, 'block number') !== to))
        throw new RpcError('server', `block ${to} answered for another height`);
      return { logs: parseTransferLogs(raw, from, to, token, toAddresses ? new Set(toAddresses) : null), toHash: block ? block.hash!.toLowerCase() : null };
    },
    async balanceOf(token, owner, at) {
      const res = await rpc.call<string>('eth_call', [{ to: token, data: `${BALANCE_OF}${pad32(owner).slice(2)}` }, at === null ? 'latest' : hex(at)]);
      return res === '0x' ? 0n : quantity(res, 'balanceOf');
    },
    async balancesOf(token, owners, at) {
      const res = await rpc.batch<string>(
        owners.map((o) => ({ method: 'eth_call', params: [{ to: token, data: `${BALANCE_OF}${pad32(o).slice(2)}` }, at === null ? 'latest' : hex(at)] })),
      );
      return res.map((r) => (r === '0x' ? 0n : quantity(r, 'balanceOf')));
    },
  };
}
