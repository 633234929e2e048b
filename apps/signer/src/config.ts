import { z } from 'zod';
import { tronHexOfBase58 } from './tron';

/**
 * The signer's settings (custody.md section 6). The chain settings are the server's own names
 * (CHAIN_*), so one environment file can describe the networks for both; the limits are the
 * signer's alone: the server cannot change them. The mnemonic is never a setting: only the path of
 * the file that holds it.
 */
const usd = (d: number) => z.coerce.number().min(0).max(1e12).default(d);
const evmContract = (d: string) =>
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x… contract address')
    .default(d);

export const ZSignerEnv = z.object({
  SIGNER_MNEMONIC_FILE: z.string({ error: 'is required: the path of a file (chmod 600) holding the mnemonic' }).min(1),
  SIGNER_SERVER_URL: z.string().url().default('http://127.0.0.1:3000'),
  SIGNER_TOKEN: z.string({ error: 'is required: the token whose sha256 the server has as SIGNER_TOKEN_HASH' }).min(32, 'must be at least 32 characters'),
  SIGNER_DATA_DIR: z.string().default('./data/signer'),
  SIGNER_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** one payout at most, in USD (1 USDT = 1 USD) */
  SIGNER_MAX_PAYOUT_USD: usd(1_000),
  /** per network and UTC day: paid plus in flight */
  SIGNER_DAILY_LIMIT_USD: usd(10_000),
  /** the hot wallet's native balance (BNB, POL) under which nothing is sent */
  SIGNER_MIN_GAS: z
    .string()
    .regex(/^\d+(\.\d{1,18})?$/, 'must be a decimal amount of the native coin')
    .default('0.001'),
  SIGNER_POLL_MS: z.coerce.number().int().min(100).default(5_000),
  /** a sent transaction not mined after this long is replaced under its nonce with a higher fee */
  SIGNER_STUCK_AFTER_S: z.coerce.number().int().min(0).default(180),
  /** deposit addresses (…/0'/0/i, i below this) the signer derives itself to refuse paying them */
  SIGNER_OWN_SCAN: z.coerce.number().int().min(0).max(100_000).default(1_000),
  SWEEP_MIN_USD: usd(10),
  HOT_TARGET_USD: usd(5_000),
  SWEEP_COLD_EVM_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x… address')
    .optional(),
  /** the Tron cold wallet sweeps go to once the Tron hot wallet holds HOT_TARGET_USD */
  SWEEP_COLD_TRON_ADDRESS: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a T… address')
    .optional(),
  CHAIN_BSC_CONFIRMATIONS: z.coerce.number().int().min(1).max(10_000).default(15),
  CHAIN_POLYGON_CONFIRMATIONS: z.coerce.number().int().min(1).max(10_000).default(64),
  CHAIN_BSC_RPC_URL: z.string().url().optional(),
  CHAIN_POLYGON_RPC_URL: z.string().url().optional(),
  CHAIN_BSC_USDT: evmContract('0x55d398326f99059fF775485246999027B3197955'),
  CHAIN_POLYGON_USDT: evmContract('0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
  CHAIN_BSC_DECIMALS: z.coerce.number().int().min(0).max(36).default(18),
  CHAIN_POLYGON_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  /** Tron's full node HTTP API (TronGrid or your own): the signer pays Tron withdrawals through it */
  CHAIN_TRON_API_URL: z.string().url().optional(),
  CHAIN_TRON_USDT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a T… contract address')
    .default('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  CHAIN_TRON_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  /** the most TRX one Tron payout may burn for its energy (fee_limit); the hot wallet must hold at least this much TRX */
  SIGNER_TRON_FEE_LIMIT_TRX: z.coerce.number().int().min(1).max(15_000).default(30),
});

export interface SignerNetwork {
  network: 'bsc' | 'polygon';
  url: string;
  token: `0x${string}`;
  decimals: number;
  /** blocks a gas top-up or a sweep needs before the signer builds on it (head − b + 1) */
  confirmations: number;
}

export interface SignerTron {
  url: string;
  /** the token contract, 41… hex */
  token: string;
  decimals: number;
  /** fee_limit of a payout, in sun */
  feeLimitSun: number;
}

export interface SignerConfig {
  mnemonicFile: string;
  serverUrl: string;
  token: string;
  dataDir: string;
  databaseUrl: string | undefined;
  maxPayoutMicro: bigint;
  dailyLimitMicro: bigint;
  minGasWei: bigint;
  pollMs: number;
  stuckAfterMs: number;
  ownScan: number;
  sweepMinMicro: bigint;
  hotTargetMicro: bigint;
  coldEvm: `0x${string}` | undefined;
  /** 41… hex */
  coldTron: string | undefined;
  networks: SignerNetwork[];
  tron: SignerTron | undefined;
}

export class SignerConfigError extends Error {}

const microOfUsd = (n: number) => BigInt(Math.round(n * 1_000_000));

function weiOf(text: string): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole!) * 10n ** 18n + BigInt(frac.padEnd(18, '0'));
}

/** Reads the environment once; refuses a mnemonic given any other way than by its file. */
export function loadSignerConfig(env: Record<string, string | undefined>, argv: string[] = []): SignerConfig {
  if (env.SIGNER_MNEMONIC !== undefined || env.MNEMONIC !== undefined)
    throw new SignerConfigError('A mnemonic in the environment is refused: put it in a file readable only by this user and set SIGNER_MNEMONIC_FILE');
  if (argv.length) throw new SignerConfigError('The signer takes no arguments (a mnemonic on the command line is refused): set SIGNER_MNEMONIC_FILE');
  const parsed = ZSignerEnv.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SignerConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const e = parsed.data;
  const networks: SignerNetwork[] = [];
  if (e.CHAIN_BSC_RPC_URL)
    networks.push({
      network: 'bsc',
      url: e.CHAIN_BSC_RPC_URL,
      token: e.CHAIN_BSC_USDT.toLowerCase() as `0x${string}`,
      decimals: e.CHAIN_BSC_DECIMALS,
      confirmations: e.CHAIN_BSC_CONFIRMATIONS,
    });
  if (e.CHAIN_POLYGON_RPC_URL)
    networks.push({
      network: 'polygon',
      url: e.CHAIN_POLYGON_RPC_URL,
      token: e.CHAIN_POLYGON_USDT.toLowerCase() as `0x${string}`,
      decimals: e.CHAIN_POLYGON_DECIMALS,
      confirmations: e.CHAIN_POLYGON_CONFIRMATIONS,
    });
  let tron: SignerTron | undefined;
  if (e.CHAIN_TRON_API_URL) {
    const token = tronHexOfBase58(e.CHAIN_TRON_USDT);
    if (!token) throw new SignerConfigError('Invalid configuration: CHAIN_TRON_USDT is not a valid Tron address (checksum)');
    tron = { url: e.CHAIN_TRON_API_URL.replace(/\/$/, ''), token, decimals: e.CHAIN_TRON_DECIMALS, feeLimitSun: e.SIGNER_TRON_FEE_LIMIT_TRX * 1_000_000 };
  }
  let coldTron: string | undefined;
  if (e.SWEEP_COLD_TRON_ADDRESS) {
    const hex = tronHexOfBase58(e.SWEEP_COLD_TRON_ADDRESS);
    if (!hex) throw new SignerConfigError('Invalid configuration: SWEEP_COLD_TRON_ADDRESS is not a valid Tron address (checksum)');
    coldTron = hex;
  }
  if (!networks.length && !tron)
    throw new SignerConfigError('Invalid configuration: the signer needs CHAIN_BSC_RPC_URL, CHAIN_POLYGON_RPC_URL or CHAIN_TRON_API_URL');
  return {
    mnemonicFile: e.SIGNER_MNEMONIC_FILE,
    serverUrl: e.SIGNER_SERVER_URL.replace(/\/$/, ''),
    token: e.SIGNER_TOKEN,
    dataDir: e.SIGNER_DATA_DIR,
    databaseUrl: e.SIGNER_DATABASE_URL,
    maxPayoutMicro: microOfUsd(e.SIGNER_MAX_PAYOUT_USD),
    dailyLimitMicro: microOfUsd(e.SIGNER_DAILY_LIMIT_USD),
    minGasWei: weiOf(e.SIGNER_MIN_GAS),
    pollMs: e.SIGNER_POLL_MS,
    stuckAfterMs: e.SIGNER_STUCK_AFTER_S * 1000,
    ownScan: e.SIGNER_OWN_SCAN,
    sweepMinMicro: microOfUsd(e.SWEEP_MIN_USD),
    hotTargetMicro: microOfUsd(e.HOT_TARGET_USD),
    coldEvm: e.SWEEP_COLD_EVM_ADDRESS?.toLowerCase() as `0x${string}` | undefined,
    coldTron,
    networks,
    tron,
  };
}
