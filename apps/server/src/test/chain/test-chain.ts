import { afterAll, beforeAll } from 'vitest';
import * as ledger from '../../modules/ledger/service';
import { createTestApp, type TestApp } from '../app';
import { createUser, type TestUser } from '../factories';
import { startAnvil, type Anvil } from './anvil';
import { ensureAddress } from '../../modules/custody/addresses';
import { usdtRawOf } from '../../modules/custody/amounts';
import { configureCustody } from '../../modules/custody/runtime';
import { watchOnce } from '../../modules/custody/watcher';
import { TEST_EVM_XPUB, TEST_TRON_XPUB } from './test-keys';

export interface ChainTest {
  anvil: Anvil;
  t: TestApp;
  /** the configured BSC token (18 decimals) and Polygon token (6 decimals) */
  bsc: `0x${string}`;
  polygon: `0x${string}`;
  user(): Promise<TestUser & { evm: string; evmDisplay: string }>;
  /** mints `usdt` (decimal text) of the network's token to an address: the deposit */
  deposit(network: 'bsc' | 'polygon', to: string, usdt: string): Promise<{ txHash: string; blockNumber: bigint }>;
  tick(network?: 'bsc' | 'polygon'): ReturnType<typeof watchOnce>;
  balance(userId: bigint): Promise<bigint>;
}

/** A decimal amount of tokens in the token's raw units, exactly (`"1.5"` at 6 decimals → 1500000n). */
export const usdtRaw = (amount: string, decimals: number): bigint => usdtRawOf(amount, decimals)!;

/**
 * A fresh anvil for the test file, two tokens on it (18 decimals as "BSC", 6 as "Polygon"), and an
 * app with PAYMENTS_GATEWAY=chain pointed at both, the test mnemonic's xpubs, small depths and
 * instant back-off. The watchers' first scan starts at block 0.
 */
export function useChainTest(env: Record<string, string> = {}): ChainTest {
  const c = {} as ChainTest;
  beforeAll(async () => {
    c.anvil = await startAnvil();
    c.bsc = await c.anvil.deployToken(18);
    c.polygon = await c.anvil.deployToken(6);
    c.t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
      CHAIN_BSC_RPC_URL: c.anvil.url,
      CHAIN_BSC_USDT: c.bsc,
      CHAIN_BSC_CONFIRMATIONS: '5',
      CHAIN_POLYGON_RPC_URL: c.anvil.url,
      CHAIN_POLYGON_USDT: c.polygon,
      CHAIN_POLYGON_CONFIRMATIONS: '5',
      RATE_LIMIT_AUTH_PER_MIN: '1000',
      ...env,
    });
    configureCustody(c.t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
  });
  afterAll(async () => {
    // anvil is stopped even when closing the app fails (a leftover anvil outlives the run).
    try {
      await c.t?.close();
    } finally {
      await c.anvil?.close();
    }
  });
  c.user = async () => {
    const u = await createUser(c.t.db, c.t.ctx.secret);
    const a = await ensureAddress(c.t.ctx, u.id, 'evm');
    return { ...u, evm: a.hex, evmDisplay: a.display };
  };
  c.deposit = async (network, to, usdt) => {
    const decimals = network === 'bsc' ? 18 : 6;
    return c.anvil.mint(network === 'bsc' ? c.bsc : c.polygon, to, usdtRaw(usdt, decimals));
  };
  c.tick = (network = 'bsc') => watchOnce(c.t.ctx, network);
  c.balance = async (userId) => (await ledger.getBalances(c.t.db, userId)).deposit;
  return c;
}
