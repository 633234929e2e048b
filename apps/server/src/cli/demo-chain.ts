import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { displayAddress } from '../modules/custody/derive';
import { TEST_EVM_XPUB, TEST_TRON_XPUB } from '../test/chain/test-keys';
import { startAnvil } from '../test/chain/anvil';
import { startTronFake } from '../test/chain/tron-fake';
import { DEMO_DATA_DIR, demoStatePath, type DemoChainState } from './demo-chain-state';

/**
 * `npm run demo:chain`: the self-custody gateway end to end on this machine, from a fresh clone.
 * A local EVM chain (anvil from the pinned npm package, a block a second), three test tokens on it
 * (18 decimals as "BSC", 6 as "Polygon" and "Tron"), the Tron fake in front of it, and the app with
 * PAYMENTS_GATEWAY=chain and the test mnemonic's xpubs (never for real money). Ctrl-C stops all.
 */
async function main() {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const anvil = await startAnvil({ args: ['--block-time', '1'] });
  // The demo's sender: an address anvil lets us act as (its dev accounts are the test mnemonic's, so our users' own addresses).
  const sender = '0x000000000000000000000000000000000000bEEF';
  await anvil.rpc('anvil_impersonateAccount', [sender]);
  await anvil.rpc('anvil_setBalance', [sender, '0x56BC75E2D63100000']);
  const tokens = { bsc: await anvil.deployToken(18), polygon: await anvil.deployToken(6), tron: await anvil.deployToken(6) };
  await anvil.mint(tokens.bsc, sender, 10n ** 6n * 10n ** 18n);
  await anvil.mint(tokens.polygon, sender, 10n ** 6n * 10n ** 6n);
  await anvil.mint(tokens.tron, sender, 10n ** 6n * 10n ** 6n);
  const tron = await startTronFake(anvil.url);

  mkdirSync(DEMO_DATA_DIR, { recursive: true });
  const state: DemoChainState = {
    rpcUrl: anvil.url,
    sender,
    tronApiUrl: tron.url,
    tokens: { bsc: { address: tokens.bsc, decimals: 18 }, polygon: { address: tokens.polygon, decimals: 6 }, tron: { address: tokens.tron, decimals: 6 } },
  };
  writeFileSync(demoStatePath(), JSON.stringify(state, null, 2));

  const port = process.env.PORT ?? '3000';
  const env = {
    ...process.env,
    PORT: port,
    DATA_DIR: DEMO_DATA_DIR,
    PUBLIC_URL: `http://localhost:${port}`,
    PAYMENTS_GATEWAY: 'chain',
    CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
    CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
    CHAIN_BSC_RPC_URL: anvil.url,
    CHAIN_BSC_USDT: tokens.bsc,
    CHAIN_BSC_DECIMALS: '18',
    CHAIN_BSC_CONFIRMATIONS: '5',
    CHAIN_POLYGON_RPC_URL: anvil.url,
    CHAIN_POLYGON_USDT: tokens.polygon,
    CHAIN_POLYGON_DECIMALS: '6',
    CHAIN_POLYGON_CONFIRMATIONS: '8',
    CHAIN_TRON_API_URL: tron.url,
    CHAIN_TRON_USDT: displayAddress('tron', tokens.tron),
    CHAIN_POLL_MS: '1000',
    ADMIN_EMAIL: process.env.ADMIN_EMAIL ?? 'admin@example.test',
    ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'Adm1nPassword',
  };
  const app = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], { cwd: root, env, stdio: 'inherit' });
  console.log(`
Self-custody demo (test mnemonic, local chain ${anvil.url}, Tron fake ${tron.url})
  App:    http://localhost:${port}  (sign up, then Deposit: your permanent address is shown)
  Admin:  ${env.ADMIN_EMAIL} / ${env.ADMIN_PASSWORD} -> Custody
  Send a deposit to the address the page shows:
    npm run cli -- chain:send --network bsc --to ADDRESS --amount 25
    (--network polygon, or tron with the T… address)
  BSC credits after 5 blocks, Polygon after 8, Tron once solidified (19); a block a second.
`);
  const stop = async () => {
    app.kill('SIGTERM');
    await tron.close();
    await anvil.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  app.on('exit', (code) => {
    void tron.close();
    void anvil.close().then(() => process.exit(code ?? 0));
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
