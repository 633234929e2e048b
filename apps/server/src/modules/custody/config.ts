import { z } from 'zod';
import type { HDKey } from '@scure/bip32';
import type { TAddressFamily, TCustodyNetwork, TPayCurrency } from '@app/core';
import { addressHex, parseAccountXpub, XpubError } from './derive';

/**
 * The environment of the `chain` gateway (custody.md section 1), part of the server's one
 * environment schema (config.ts). Defaults are mainnet's: the USDT contracts, their decimals and
 * the confirmation depths this project chose (docs/custody.md says why).
 */
const depth = (d: number) => z.coerce.number().int().min(1, 'must be at least 1 confirmation').max(10_000, 'must be at most 10000').default(d);
const decimals = (d: number) => z.coerce.number().int().min(0).max(36, 'must be at most 36').default(d);
const finality = z.enum(['depth', 'finalized']).default('depth');
const evmContract = (d: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x… contract address')
    .default(d);

/** Comma-separated endpoints (blanks around the commas ignored), each a URL. */
const splitUrls = (v: string) =>
  v
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
const urlList = z
  .string()
  .refine((v) => splitUrls(v).every((u) => z.string().url().safeParse(u).success), 'must be a comma-separated list of URLs')
  .transform(splitUrls)
  .optional();

export const ZCustodyEnv = {
  CUSTODY_EVM_XPUB: z.string().optional(),
  CUSTODY_TRON_XPUB: z.string().optional(),
  CHAIN_BSC_RPC_URL: z.string().url().optional(),
  CHAIN_POLYGON_RPC_URL: z.string().url().optional(),
  CHAIN_TRON_API_URL: z.string().url().optional(),
  /** more endpoints per network (docs/custody.md, "Trust no single node"): merged after the single-URL variable, which stays the primary */
  CHAIN_BSC_RPC_URLS: urlList,
  CHAIN_POLYGON_RPC_URLS: urlList,
  CHAIN_TRON_API_URLS: urlList,
  /** how many of a network's endpoints must each confirm a transfer before it is credited; unset: all of them */
  CHAIN_RPC_QUORUM: z.coerce.number().int().min(1, 'must be at least 1').max(20, 'must be at most 20').optional(),
  CHAIN_BSC_USDT: evmContract('0x55d398326f99059fF775485246999027B3197955'),
  CHAIN_POLYGON_USDT: evmContract('0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
  CHAIN_TRON_USDT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a T… contract address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  CHAIN_BSC_DECIMALS: decimals(18),
  CHAIN_POLYGON_DECIMALS: decimals(6),
  CHAIN_TRON_DECIMALS: decimals(6),
  CHAIN_BSC_CONFIRMATIONS: depth(15),
  CHAIN_POLYGON_CONFIRMATIONS: depth(64),
  CHAIN_TRON_CONFIRMATIONS: depth(19),
  CHAIN_BSC_FINALITY: finality,
  CHAIN_POLYGON_FINALITY: finality,
  CHAIN_POLL_MS: z.coerce.number().int().min(100, 'must be at least 100').default(3_000),
  /** the widest block range one log query asks for; a node that refuses it makes the watcher halve it */
  CHAIN_LOG_RANGE: z.coerce.number().int().min(1).max(100_000).default(2_000),
  /** the most deposits one watcher tick credits: bounds a tick's database work when a backlog is found */
  CHAIN_CREDITS_PER_TICK: z.coerce.number().int().min(1, 'must be at least 1').max(10_000).default(200),
  /** the longest one RPC call (EVM JSON-RPC, Tron HTTP) may take: a hung node must not hold a tick, a request or a shutdown */
  CHAIN_RPC_TIMEOUT_MS: z.coerce.number().int().min(100, 'must be at least 100').max(120_000, 'must be at most 120000').default(10_000),
  /** a network whose node has not answered for longer than this is `stale` in health and the admin view */
  CHAIN_STALE_AFTER_S: z.coerce.number().int().min(1, 'must be at least 1').max(86_400).default(60),
  /** how often a job reads the token balances of every deposit address (the admin view shows what it stored) */
  CHAIN_BALANCES_POLL_MS: z.coerce.number().int().min(1_000, 'must be at least 1000').default(60_000),
};

type CustodyEnv = z.output<z.ZodObject<typeof ZCustodyEnv>>;

export interface NetworkConfig {
  network: TCustodyNetwork;
  payCurrency: TPayCurrency;
  family: TAddressFamily;
  /** the primary endpoint: the JSON-RPC endpoint (EVM) or the node's HTTP API base (Tron); the watcher reads logs from it */
  url: string;
  /** every endpoint, the primary first; each is asked to confirm a transfer before it is credited */
  urls: string[];
  /** how many of `urls` must confirm a transfer (CHAIN_RPC_QUORUM, at most all of them) */
  quorum: number;
  /** the token contract as 20 bytes of lowercase hex */
  token: string;
  decimals: number;
  confirmations: number;
  finality: 'depth' | 'finalized';
}

export interface CustodyConfig {
  /** the account keys by family, when configured */
  xpubs: Partial<Record<TAddressFamily, { text: string; key: HDKey }>>;
  /** the networks offered, in the order of CUSTODY_NETWORKS */
  networks: NetworkConfig[];
  pollMs: number;
  logRange: number;
  creditsPerTick: number;
  rpcTimeoutMs: number;
  staleAfterS: number;
  balancesPollMs: number;
}

/** A configuration error: one line naming the variable (config.ts turns it into a ConfigError). */
export class CustodyConfigError extends Error {}

/**
 * A network's endpoints: the single-URL variable (the primary) then the list's, the same URL once
 * (a trailing slash ignored); null when neither is set. The quorum is CHAIN_RPC_QUORUM, at most the
 * number of endpoints (a network with fewer endpoints than the quorum needs all of them); unset, all.
 */
function endpoints(single: string | undefined, list: string[] | undefined, quorum: number | undefined): { url: string; urls: string[]; quorum: number } | null {
  const urls = [...new Set([...(single ? [single] : []), ...(list ?? [])].map((u) => u.replace(/\/$/, '')))];
  if (!urls.length) return null;
  return { url: urls[0]!, urls, quorum: Math.min(quorum ?? urls.length, urls.length) };
}

function xpubOf(variable: string, text: string | undefined, family: TAddressFamily): { text: string; key: HDKey } | undefined {
  if (!text) return undefined;
  try {
    return { text: text.trim(), key: parseAccountXpub(text, family) };
  } catch (err) {
    if (err instanceof XpubError) throw new CustodyConfigError(`${variable} ${err.message}`);
    throw err;
  }
}

/**
 * The gateway's configuration, checked as a whole: with `chain`, at least one network, and the
 * xpub of each configured network's family. Without `chain` the xpubs are still checked when set
 * (a private key in the environment is refused whatever the gateway).
 */
export function buildCustodyConfig(e: CustodyEnv, gatewayIsChain: boolean): CustodyConfig {
  const xpubs: CustodyConfig['xpubs'] = {};
  const evm = xpubOf('CUSTODY_EVM_XPUB', e.CUSTODY_EVM_XPUB, 'evm');
  const tron = xpubOf('CUSTODY_TRON_XPUB', e.CUSTODY_TRON_XPUB, 'tron');
  if (evm) xpubs.evm = evm;
  if (tron) xpubs.tron = tron;

  const networks: NetworkConfig[] = [];
  const tronToken = addressHex('tron', e.CHAIN_TRON_USDT);
  if (!tronToken) throw new CustodyConfigError('CHAIN_TRON_USDT is not a valid Tron address (checksum)');
  const candidates: (NetworkConfig & { urlVar: string; xpubVar: string })[] = [];
  const bsc = endpoints(e.CHAIN_BSC_RPC_URL, e.CHAIN_BSC_RPC_URLS, e.CHAIN_RPC_QUORUM);
  const polygon = endpoints(e.CHAIN_POLYGON_RPC_URL, e.CHAIN_POLYGON_RPC_URLS, e.CHAIN_RPC_QUORUM);
  const tronUrls = endpoints(e.CHAIN_TRON_API_URL, e.CHAIN_TRON_API_URLS, e.CHAIN_RPC_QUORUM);
  if (bsc)
    candidates.push({
      network: 'bsc',
      payCurrency: 'usdtbsc',
      family: 'evm',
      ...bsc,
      token: e.CHAIN_BSC_USDT.toLowerCase(),
      decimals: e.CHAIN_BSC_DECIMALS,
      confirmations: e.CHAIN_BSC_CONFIRMATIONS,
      finality: e.CHAIN_BSC_FINALITY,
      urlVar: 'CHAIN_BSC_RPC_URL',
      xpubVar: 'CUSTODY_EVM_XPUB',
    });
  if (polygon)
    candidates.push({
      network: 'polygon',
      payCurrency: 'usdtmatic',
      family: 'evm',
      ...polygon,
      token: e.CHAIN_POLYGON_USDT.toLowerCase(),
      decimals: e.CHAIN_POLYGON_DECIMALS,
      confirmations: e.CHAIN_POLYGON_CONFIRMATIONS,
      finality: e.CHAIN_POLYGON_FINALITY,
      urlVar: 'CHAIN_POLYGON_RPC_URL',
      xpubVar: 'CUSTODY_EVM_XPUB',
    });
  if (tronUrls)
    candidates.push({
      network: 'tron',
      payCurrency: 'usdttrc20',
      family: 'tron',
      ...tronUrls,
      token: tronToken,
      decimals: e.CHAIN_TRON_DECIMALS,
      confirmations: e.CHAIN_TRON_CONFIRMATIONS,
      // Tron's solidified block is its finality; its depth (19) is the same thing counted.
      finality: 'depth',
      urlVar: 'CHAIN_TRON_API_URL',
      xpubVar: 'CUSTODY_TRON_XPUB',
    });
  for (const { urlVar, xpubVar, ...n } of candidates) {
    if (gatewayIsChain && !xpubs[n.family]) throw new CustodyConfigError(`${xpubVar} is required when ${urlVar} is set with PAYMENTS_GATEWAY=chain`);
    networks.push(n);
  }
  if (gatewayIsChain && !networks.length)
    throw new CustodyConfigError(
      'PAYMENTS_GATEWAY=chain needs at least one network: set CHAIN_BSC_RPC_URL(S), CHAIN_POLYGON_RPC_URL(S) or CHAIN_TRON_API_URL(S)',
    );
  return {
    xpubs,
    networks: gatewayIsChain ? networks : [],
    pollMs: e.CHAIN_POLL_MS,
    logRange: e.CHAIN_LOG_RANGE,
    creditsPerTick: e.CHAIN_CREDITS_PER_TICK,
    rpcTimeoutMs: e.CHAIN_RPC_TIMEOUT_MS,
    staleAfterS: e.CHAIN_STALE_AFTER_S,
    balancesPollMs: e.CHAIN_BALANCES_POLL_MS,
  };
}
