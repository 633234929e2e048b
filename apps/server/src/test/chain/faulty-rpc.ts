import { httpTransport, RpcError, type RpcRequest, type RpcResponse, type RpcTransport } from '../../modules/custody/rpc/json-rpc';

export interface Faults {
  /** chance per call of a failure before the node answers: 429, 5xx, a timeout */
  error: number;
  /** a log query over more than this many blocks is refused ("range too large") */
  maxRange: number;
  /** chance that a log answer repeats some logs */
  duplicate: number;
  /** chance that a log answer also carries logs of the blocks around the range */
  overlap: number;
  /** chance that log and batch answers come shuffled */
  shuffle: number;
  /** chance per call that the node answers as a replica this many blocks behind */
  behind: number;
  behindBlocks: number;
}

export const NO_FAULTS: Faults = { error: 0, maxRange: Number.MAX_SAFE_INTEGER, duplicate: 0, overlap: 0, shuffle: 0, behind: 0, behindBlocks: 0 };

type Log = { blockNumber: string };

/**
 * A JSON-RPC transport in front of a real node (anvil) that misbehaves the ways public RPC
 * providers do: rate limits, 5xx, timeouts, refused ranges, repeated, overlapping and shuffled
 * logs, shuffled batch answers, and a lagging replica behind a load balancer (a lower head, blocks
 * it does not have yet, logs only up to its head). The watcher must end where a clean node leads.
 */
export function faultyTransport(url: string, random: () => number, faults: Partial<Faults> = {}) {
  const f = { ...NO_FAULTS, ...faults };
  const real = httpTransport(url);
  const counts = { calls: 0, errors: 0, refusedRanges: 0, duplicated: 0, overlapped: 0, behind: 0 };
  const shuffle = <T>(xs: T[]): T[] => {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  };

  async function one(req: RpcRequest, lagHead: bigint | null): Promise<RpcResponse> {
    if (req.method === 'eth_getLogs') {
      const filter = req.params[0] as { fromBlock: string; toBlock: string };
      const from = BigInt(filter.fromBlock);
      let to = BigInt(filter.toBlock);
      if (to - from + 1n > BigInt(f.maxRange)) {
        counts.refusedRanges++;
        return {
          jsonrpc: '2.0',
          id: req.id,
          error: { code: -32005, message: `query returned more than 10000 results; block range is too large (max ${f.maxRange})` },
        };
      }
      // A lagging replica answers for the blocks it has: an empty tail, not an error.
      if (lagHead !== null && to > lagHead) to = lagHead;
      const wide = random() < f.overlap;
      const askFrom = wide && from > 0n ? from - 1n : from;
      const askTo = wide ? to + 1n : to;
      if (wide) counts.overlapped++;
      if (askTo < askFrom) return { jsonrpc: '2.0', id: req.id, result: [] };
      const res = (await real(
        { ...req, params: [{ ...filter, fromBlock: `0x${askFrom.toString(16)}`, toBlock: `0x${askTo.toString(16)}` }] },
        { timeoutMs: 10_000 },
      )) as RpcResponse;
      let logs = (Array.isArray(res.result) ? res.result : []) as Log[];
      if (lagHead !== null) logs = logs.filter((l) => BigInt(l.blockNumber) <= lagHead);
      if (logs.length && random() < f.duplicate) {
        counts.duplicated++;
        logs = [...logs, ...logs.slice(0, 1 + Math.floor(random() * logs.length))];
      }
      if (random() < f.shuffle) logs = shuffle(logs);
      return { ...res, result: logs };
    }
    if (lagHead !== null && req.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: req.id, result: `0x${lagHead.toString(16)}` };
    if (lagHead !== null && req.method === 'eth_getBlockByNumber' && /^0x/.test(String(req.params[0])) && BigInt(String(req.params[0])) > lagHead)
      return { jsonrpc: '2.0', id: req.id, result: null };
    return (await real(req, { timeoutMs: 10_000 })) as RpcResponse;
  }

  const transport: RpcTransport = async (body) => {
    counts.calls++;
    const r = random();
    if (r < f.error) {
      counts.errors++;
      const kind = Math.floor((r / f.error) * 3);
      if (kind === 0) throw new RpcError('rate_limited', `${url} answered 429`, 429);
      if (kind === 1) throw new RpcError('server', `${url} answered 502: bad gateway`, 502);
      throw new RpcError('unreachable', `${url} did not answer: timeout`);
    }
    let lagHead: bigint | null = null;
    if (random() < f.behind) {
      counts.behind++;
      const head = BigInt(
        ((await real({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }, { timeoutMs: 10_000 })) as RpcResponse).result as string,
      );
      lagHead = head - BigInt(f.behindBlocks) > 0n ? head - BigInt(f.behindBlocks) : 0n;
    }
    if (Array.isArray(body)) {
      const answers: RpcResponse[] = [];
      for (const req of body) answers.push(await one(req, lagHead));
      return random() < f.shuffle ? shuffle(answers) : answers;
    }
    return one(body, lagHead);
  };
  return { transport, counts };
}
