import { evmClient, type ChainClient } from './client';
import { callSignal, httpTransport, RpcError, type RpcTransport } from './json-rpc';

/**
 * A Tron full node (or a TronGrid-style gateway) read through its documented HTTP API
 * (custody.md section 3): the Ethereum-style JSON-RPC at `/jsonrpc` (read-only: blocks, logs,
 * eth_call at the latest block) for the same watcher as the EVM networks, and the solidity node's
 * `/walletsolidity/getnowblock` for finality (solidified = final). Addresses in JSON-RPC are the
 * 20-byte form without the 0x41 prefix; transaction ids are shown without 0x, as Tron does.
 */
export function tronClient(
  baseUrl: string,
  opts: { timeoutMs?: number; fetch?: typeof fetch; transport?: RpcTransport; stop?: AbortSignal } = {},
): ChainClient {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const evm = evmClient(opts.transport ?? httpTransport(`${baseUrl}/jsonrpc`, doFetch), {
    timeoutMs,
    // Multicall3 is an EVM deployment; Tron's eth_call is read with plain calls.
    multicall: false,
    ...(opts.stop ? { stop: opts.stop } : {}),
  });

  async function solidified(): Promise<bigint> {
    let res: Response;
    let text: string;
    try {
      res = await doFetch(`${baseUrl}/walletsolidity/getnowblock`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        signal: callSignal(timeoutMs, opts.stop),
      });
      // The body is read under the same bound as the headers.
      text = await res.text();
    } catch (err) {
      throw new RpcError('unreachable', `Tron node did not answer within ${timeoutMs} ms: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (res.status === 429) throw new RpcError('rate_limited', 'Tron node answered 429', 429);
    if (!res.ok) throw new RpcError('server', `Tron node answered ${res.status}`, res.status);
    type NowBlock = { block_header?: { raw_data?: { number?: number | string } } } | null;
    let body: NowBlock;
    try {
      body = JSON.parse(text) as NowBlock;
    } catch {
      body = null;
    }
    const n = body?.block_header?.raw_data?.number;
    if (n === undefined || n === null || !/^\d+$/.test(String(n))) throw new RpcError('server', 'getnowblock answered no block number');
    return BigInt(n);
  }

  return {
    head: () => evm.head(),
    finalizedHeight: solidified,
    blockHashes: (numbers) => evm.blockHashes(numbers),
    async transferLogs(from, to, token, toAddresses) {
      const res = await evm.transferLogs(from, to, token, toAddresses);
      return { ...res, logs: res.logs.map((l) => ({ ...l, txHash: l.txHash.replace(/^0x/, '') })) };
    },
    // Tron's eth_call reads the latest block only.
    balanceOf: (token, owner) => evm.balanceOf(token, owner, null),
    balancesOf: (token, owners) => evm.balancesOf!(token, owners, null),
    receipts: (txHashes) => evm.receipts(txHashes),
  };
}
