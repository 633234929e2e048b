import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import type { NetworkConfig } from './config';
import { evmClient, type ChainClient } from './rpc/client';
import { tronClient } from './rpc/tron';

export interface WatchTuning {
  /** blocks read by one tick at most (a long catch-up goes on at the next tick) */
  maxBlocksPerTick: number;
  /** tries of one RPC call before the tick gives up (the next tick starts again where it stopped) */
  attempts: number;
  /** the back-off wait; tests make it instant */
  sleep: (ms: number) => Promise<void>;
  /** addresses per log query while the watched set is small */
  addressChunk: number;
  /** past this many addresses, read every Transfer of the token and match the recipients in the database */
  allLogsAbove: number;
  /** credits one tick makes at most, so the fork check runs again between long runs of credits */
  creditsPerTick: number;
  /** where a network's first scan starts; by default a little below the head the first tick sees */
  startAt?: (head: bigint, net: NetworkConfig) => bigint;
  /** the runtime's stop (set by custodyRuntime): no retry and no back-off after it */
  stop?: AbortSignal;
}

/** Per network, what a watcher keeps between ticks in memory only (losing it costs nothing). */
export interface NetworkRuntime {
  config: NetworkConfig;
  /** the primary endpoint's client: the watcher reads heads, blocks and logs from it */
  client: ChainClient;
  /**
   * Every endpoint's client, the primary first (the same object as `client`): each is asked to
   * confirm a transfer before it is credited (quorum.ts, docs/custody.md "Trust no single node").
   */
  verifiers: ChainClient[];
  /** how each endpoint is named in reasons and log lines: its position and host (a URL's path may hold an API key) */
  labels: string[];
  /** the current log range: halved when a node refuses it, doubled back after a success */
  range: number;
}

export interface CustodyRuntime {
  networks: Map<TCustodyNetwork, NetworkRuntime>;
  tuning: WatchTuning;
  /** aborted when the scheduler stops: every node call and back-off in flight ends at once */
  stop: AbortController;
}

const runtimes = new WeakMap<AppContext, CustodyRuntime>();

export const DEFAULT_TUNING: WatchTuning = {
  maxBlocksPerTick: 20_000,
  attempts: 5,
  // Unref'd: a back-off never keeps a stopping process alive.
  sleep: (ms) => new Promise((r) => setTimeout(r, ms).unref()),
  addressChunk: 200,
  allLogsAbove: 2_000,
  creditsPerTick: 200,
};

function clientFor(net: NetworkConfig, url: string, timeoutMs: number, stop: AbortSignal): ChainClient {
  return net.family === 'tron' ? tronClient(url, { timeoutMs, stop }) : evmClient(url, { timeoutMs, stop });
}

/** `endpoint 2 (rpc.example:8545)`: never the path or the query, where providers put API keys. */
export function endpointLabel(url: string, i: number): string {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    host = 'invalid URL';
  }
  return `endpoint ${i + 1} (${host})`;
}

function networkRuntime(n: NetworkConfig, timeoutMs: number, stop: AbortSignal, logRange: number): NetworkRuntime {
  const verifiers = n.urls.map((u) => clientFor(n, u, timeoutMs, stop));
  return { config: n, client: verifiers[0]!, verifiers, labels: n.urls.map(endpointLabel), range: logRange };
}

/** The watchers' clients and tuning for one running app (built once per context from its configuration). */
export function custodyRuntime(ctx: AppContext): CustodyRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) {
    const custody = ctx.config.payments.custody;
    const stop = new AbortController();
    rt = {
      networks: new Map(custody.networks.map((n) => [n.network, networkRuntime(n, custody.rpcTimeoutMs, stop.signal, custody.logRange)])),
      tuning: { ...DEFAULT_TUNING, creditsPerTick: custody.creditsPerTick, stop: stop.signal },
      stop,
    };
    runtimes.set(ctx, rt);
  }
  return rt;
}

/**
 * Test, bench and demo knobs: another primary client per network (a fault-injecting one; it also
 * takes the primary's place among the verifiers), other verifiers (the primary first), other tuning.
 */
export function configureCustody(
  ctx: AppContext,
  opts: {
    clients?: Partial<Record<TCustodyNetwork, ChainClient>>;
    verifiers?: Partial<Record<TCustodyNetwork, ChainClient[]>>;
    tuning?: Partial<WatchTuning>;
  },
): CustodyRuntime {
  const rt = custodyRuntime(ctx);
  for (const [network, verifiers] of Object.entries(opts.verifiers ?? {}) as [TCustodyNetwork, ChainClient[]][]) {
    const n = rt.networks.get(network);
    if (!n || !verifiers.length) continue;
    n.verifiers = verifiers;
    n.client = verifiers[0]!;
    while (n.labels.length < verifiers.length) n.labels.push(`endpoint ${n.labels.length + 1}`);
  }
  for (const [network, client] of Object.entries(opts.clients ?? {}) as [TCustodyNetwork, ChainClient][]) {
    const n = rt.networks.get(network);
    if (n) {
      n.client = client;
      n.verifiers = [client, ...n.verifiers.slice(1)];
    }
  }
  rt.tuning = { ...rt.tuning, ...opts.tuning };
  return rt;
}

/**
 * Ends every node call and back-off wait in flight of this context at once, and any later one
 * before it starts: called when the app closes, so a hung node cannot hold a shutdown (the
 * scheduler's stop waits for the running ticks).
 */
export function stopCustody(ctx: AppContext): void {
  runtimes.get(ctx)?.stop.abort();
}

/** Waits `ms` through the tuning's sleep, or less: a stop ends the wait at once. */
export async function pause(tuning: WatchTuning, ms: number): Promise<void> {
  const signal = tuning.stop;
  if (!signal) return tuning.sleep(ms);
  if (signal.aborted) return;
  let done: () => void = () => undefined;
  const aborted = new Promise<void>((r) => (done = r));
  signal.addEventListener('abort', done, { once: true });
  try {
    await Promise.race([tuning.sleep(ms), aborted]);
  } finally {
    signal.removeEventListener('abort', done);
  }
}
