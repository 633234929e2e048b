import { displayAddress } from '../modules/custody/derive';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_TRON_XPUB } from '../test/chain/test-keys';

/** A port setting of the demo: unset or empty means any free port (0). */
export function demoPort(name: 'DEMO_ANVIL_PORT' | 'DEMO_TRON_PORT', text: string | undefined): number {
  if (text === undefined || text === '') return 0;
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${name} must be a port number from 1 to 65535, got ${text}`);
  return n;
}

/**
 * The environment of the demo's app: the operator's shell minus anything that would point it at a
 * real database (DATABASE_URL is cleared, so the app opens PGlite in `dataDir`, the demo's own
 * temporary directory), plus the chain gateway on the local chain with the test mnemonic's xpubs.
 * The app is also started in `dataDir` (demo-chain.ts), so the `.env` of the checkout, which the
 * server reads from its working directory, is never read.
 */
export function demoAppEnv(
  shell: Record<string, string | undefined>,
  d: { dataDir: string; port: string; anvilUrl: string; tronUrl: string; tokens: { bsc: string; polygon: string; tron: string }; signerToken: string },
): Record<string, string | undefined> {
  return {
    ...shell,
    DATABASE_URL: '',
    PORT: d.port,
    DATA_DIR: d.dataDir,
    PUBLIC_URL: `http://localhost:${d.port}`,
    PAYMENTS_GATEWAY: 'chain',
    CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
    CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
    CHAIN_BSC_RPC_URL: d.anvilUrl,
    CHAIN_BSC_USDT: d.tokens.bsc,
    CHAIN_BSC_DECIMALS: '18',
    CHAIN_BSC_CONFIRMATIONS: '5',
    CHAIN_POLYGON_RPC_URL: d.anvilUrl,
    CHAIN_POLYGON_USDT: d.tokens.polygon,
    CHAIN_POLYGON_DECIMALS: '6',
    CHAIN_POLYGON_CONFIRMATIONS: '8',
    CHAIN_TRON_API_URL: d.tronUrl,
    CHAIN_TRON_USDT: displayAddress('tron', d.tokens.tron),
    CHAIN_POLL_MS: '1000',
    // The signer pays approved withdrawals on the local chain (demo-chain.ts starts it beside the app).
    PAYOUTS: 'signer',
    SIGNER_TOKEN_HASH: createHash('sha256').update(d.signerToken).digest('hex'),
    CUSTODY_HOT_EVM_ADDRESS: TEST_HOT_EVM_ADDRESS,
    ADMIN_EMAIL: shell.ADMIN_EMAIL ?? 'admin@example.test',
    ADMIN_PASSWORD: shell.ADMIN_PASSWORD ?? 'Adm1nPassword',
  };
}

/**
 * The demo signer's environment: the test mnemonic from a file of the demo's own (mode 600), its
 * database in the demo's directory (never SIGNER_DATABASE_URL from the shell), the same local chain
 * and tokens as the app.
 */
export function demoSignerEnv(
  shell: Record<string, string | undefined>,
  d: { dataDir: string; port: string; anvilUrl: string; tokens: { bsc: string; polygon: string }; signerToken: string; mnemonicFile: string },
): Record<string, string | undefined> {
  const { SIGNER_DATABASE_URL: _ignored, ...rest } = shell;
  return {
    ...rest,
    SIGNER_MNEMONIC_FILE: d.mnemonicFile,
    SIGNER_TOKEN: d.signerToken,
    SIGNER_SERVER_URL: `http://127.0.0.1:${d.port}`,
    SIGNER_DATA_DIR: path.join(d.dataDir, 'signer'),
    SIGNER_POLL_MS: '2000',
    CHAIN_BSC_RPC_URL: d.anvilUrl,
    CHAIN_BSC_USDT: d.tokens.bsc,
    CHAIN_BSC_DECIMALS: '18',
    CHAIN_BSC_CONFIRMATIONS: '5',
    CHAIN_POLYGON_RPC_URL: d.anvilUrl,
    CHAIN_POLYGON_USDT: d.tokens.polygon,
    CHAIN_POLYGON_DECIMALS: '6',
    CHAIN_POLYGON_CONFIRMATIONS: '8',
  };
}
