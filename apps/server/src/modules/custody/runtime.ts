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
}

/** Per network, what a watcher keeps between ticks in memory only (losing it costs nothing). */
export interface NetworkRuntime {
  config: NetworkConfig;
  client: ChainClient;
  /** the current log range: halved when a node refuses it, doubled back after a success */
  range: number;
}

export interface CustodyRuntime {
  networks: Map<TCustodyNetwork, NetworkRuntime>;
  tuning: WatchTuning;
}

const runtimes = new WeakMap<AppContext, CustodyRuntime>();

export const DEFAULT_TUNING: WatchTuning = {
  maxBlocksPerTick: 20_000,
  attempts: 5,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  addressChunk: 200,
  allLogsAbove: 2_000,
  creditsPerTick: 200,
};

function clientFor(net: NetworkConfig): ChainClient {
  return net.family === 'tron' ? tronClient(net.url) : evmClient(net.url);
}

/** The watchers' clients and tuning for one running app (built once per context from its configuration). */
export function custodyRuntime(ctx: AppContext): CustodyRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) {
    const custody = ctx.config.payments.custody;
    rt = {
      networks: new Map(custody.networks.map((n) => [n.network, { config: n, client: clientFor(n), range: custody.logRange }])),
      tuning: { ...DEFAULT_TUNING, creditsPerTick: custody.creditsPerTick },
    };
    runtimes.set(ctx, rt);
  }
  return rt;
}

/** Test, bench and demo knobs: another client per network (a fault-injecting one), other tuning. */
export function configureCustody(
  ctx: AppContext,
  opts: { clients?: Partial<Record<TCustodyNetwork, ChainClient>>; tuning?: Partial<WatchTuning> },
): CustodyRuntime {
  const rt = custodyRuntime(ctx);
  for (const [network, client] of Object.entries(opts.clients ?? {}) as [TCustodyNetwork, ChainClient][]) {
    const n = rt.networks.get(network);
    if (n) n.client = client;
  }
  rt.tuning = { ...rt.tuning, ...opts.tuning };
  return rt;
}
