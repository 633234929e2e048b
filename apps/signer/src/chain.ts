import { createPublicClient, encodeFunctionData, erc20Abi, http, keccak256, type Hex, type PublicClient, type TransactionReceipt, type Transport } from 'viem';
import type { HDAccount } from 'viem/accounts';
import type { SignerNetwork } from './config';
import type { Sql } from './store';

/**
 * One EVM network as the signer uses it: viem's public client for reads and broadcasts, the hot
 * account (a local account: the key never leaves this process) for signing. Legacy-priced
 * transactions: BSC and Polygon both take them, and a replacement is the same nonce at a higher
 * gas price.
 */
export interface EvmNetwork {
  config: SignerNetwork;
  client: PublicClient;
  chainId: number;
  hot: HDAccount;
  /** time spent waiting for this network's node, read by the benchmark beside the signer's own time */
  rpc: RpcTime;
}

/** Wall time with at least one call to the node open (overlapping calls counted once), and the calls made. */
export interface RpcTime {
  ms: number;
  calls: number;
}

export async function connectNetwork(config: SignerNetwork, hot: HDAccount): Promise<EvmNetwork> {
  const rpc: RpcTime = { ms: 0, calls: 0 };
  const client = createPublicClient({ transport: timedTransport(http(config.url, { timeout: 10_000, retryCount: 1 }), rpc) });
  return { config, client, chainId: await client.getChainId(), hot, rpc };
}

/**
 * The transport with its waits counted. Concurrent calls (two balances read at once) share one
 * wait: summing each call's time would report more waiting than the signer's wall time.
 */
function timedTransport(inner: Transport, rpc: RpcTime): Transport {
  let open = 0;
  let since = 0;
  return (args) => {
    const t = inner(args);
    const request: typeof t.request = async (req, opts) => {
      rpc.calls++;
      if (open++ === 0) since = performance.now();
      try {
        return await t.request(req, opts);
      } finally {
        if (--open === 0) rpc.ms += performance.now() - since;
      }
    };
    return { ...t, request };
  };
}

export const GAS_LIMIT = 100_000n;

/** Signs a token transfer from the hot address; the bytes and their hash (the transaction's id). */
export async function signTransfer(net: EvmNetwork, p: { nonce: bigint; to: string; raw: bigint; gasPrice: bigint }): Promise<{ raw: Hex; hash: Hex }> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [p.to as Hex, p.raw] });
  const raw = await net.hot.signTransaction({
    chainId: net.chainId,
    type: 'legacy',
    to: net.config.token,
    data,
    nonce: Number(p.nonce),
    gas: GAS_LIMIT,
    gasPrice: p.gasPrice,
    value: 0n,
  });
  return { raw, hash: keccak256(raw) };
}

/**
 * Sends signed bytes. Sending the same bytes again is harmless (the node answers that it knows
 * them, or that their nonce is used): those answers count as sent; anything else is thrown.
 */
export async function broadcast(net: EvmNetwork, raw: Hex): Promise<void> {
  try {
    await net.client.sendRawTransaction({ serializedTransaction: raw });
  } catch (err) {
    const text = String((err as Error).message ?? err).toLowerCase();
    if (/already known|known transaction|nonce too low|already imported|replacement transaction underpriced|nonce has already been used/.test(text)) return;
    throw err;
  }
}

/** The receipt of a transaction, or null while the node has none. */
export async function receiptOf(net: EvmNetwork, hash: Hex): Promise<TransactionReceipt | null> {
  try {
    return await net.client.getTransactionReceipt({ hash });
  } catch (err) {
    if ((err as { name?: string }).name === 'TransactionReceiptNotFoundError') return null;
    throw err;
  }
}

export const rawOfMicro = (micro: bigint, decimals: number): bigint =>
  decimals >= 6 ? micro * 10n ** BigInt(decimals - 6) : micro / 10n ** BigInt(6 - decimals);

export async function hotBalances(net: EvmNetwork): Promise<{ token: bigint; gas: bigint }> {
  const [token, gas] = await Promise.all([
    net.client.readContract({ address: net.config.token, abi: erc20Abi, functionName: 'balanceOf', args: [net.hot.address] }),
    net.client.getBalance({ address: net.hot.address }),
  ]);
  return { token, gas };
}

/**
 * The next nonce of the hot address on a network, claimed inside the caller's transaction of the
 * signer's database: the highest of the node's pending count, this signer's own count, and every
 * nonce it ever used for a payout or a gas top-up, so two of its transactions never share one.
 */
export async function claimHotNonce(sql: Sql, net: EvmNetwork): Promise<bigint> {
  // A nonce left by a payout the server refused before it was broadcast (a 'void' slot) is taken
  // again first: nothing was ever sent with it, and the later nonces wait behind it.
  const mined = BigInt(await net.client.getTransactionCount({ address: net.hot.address, blockTag: 'latest' }));
  const reusable = await sql.query<{ n: string | null }>(
    `select min(s.nonce)::text as n from slots s
      where s.network = $1 and s.state = 'void' and s.nonce >= $2
        and not exists (select 1 from slots o where o.network = s.network and o.nonce = s.nonce and o.state <> 'void')
        and not exists (select 1 from sweeps w where w.network = s.network and w.gas_nonce = s.nonce)`,
    [net.config.network, String(mined)],
  );
  if (reusable[0]?.n != null) return BigInt(reusable[0].n);
  const pending = BigInt(await net.client.getTransactionCount({ address: net.hot.address, blockTag: 'pending' }));
  const counted = await sql.query<{ next: string }>('select next::text as next from nonces where network = $1 for update', [net.config.network]);
  const used = await sql.query<{ slot: string | null; gas: string | null }>(
    `select (select (max(nonce) + 1)::text from slots where network = $1 and state <> 'void') as slot,
            (select (max(gas_nonce) + 1)::text from sweeps where network = $1) as gas`,
    [net.config.network],
  );
  let nonce = pending;
  for (const c of [counted[0]?.next, used[0]?.slot, used[0]?.gas]) if (c != null && BigInt(c) > nonce) nonce = BigInt(c);
  await sql.query('insert into nonces (network, next) values ($1, $2) on conflict (network) do update set next = excluded.next', [
    net.config.network,
    String(nonce + 1n),
  ]);
  return nonce;
}

/** Confirmations of a mined transaction (head − b + 1), or 0 while it has no receipt. */
export async function confirmationsOf(net: EvmNetwork, r: TransactionReceipt | null): Promise<number> {
  if (!r) return 0;
  const head = await net.client.getBlockNumber({ cacheTime: 0 });
  return Number(head - r.blockNumber + 1n);
}
