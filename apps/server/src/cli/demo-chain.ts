import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startAnvil } from '../test/chain/anvil';
import { startTronFake } from '../test/chain/tron-fake';
import { TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../test/chain/test-keys';
import { demoAppEnv, demoPort, demoSignerEnv } from './demo-chain-env';
import { DEMO_DATA_DIR, demoStatePath, type DemoChainState } from './demo-chain-state';

/**
 * `npm run demo:chain`: the self-custody gateway end to end on this machine, from a fresh clone.
 * A local EVM chain (anvil from the pinned npm package, a block a second), three test tokens on it
 * (18 decimals as "BSC", 6 as "Polygon" and "Tron"), the Tron fake in front of it, and the app with
 * PAYMENTS_GATEWAY=chain and the test mnemonic's xpubs (never for real money), on a PGlite database in
 * a temporary directory of its own: it never reads the checkout's .env or DATABASE_URL. The ports
 * of anvil and the Tron fake are free ones unless DEMO_ANVIL_PORT / DEMO_TRON_PORT name them.
 * Ctrl-C stops all and removes the directory.
 */
async function main() {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const anvilPort = demoPort('DEMO_ANVIL_PORT', process.env.DEMO_ANVIL_PORT);
  const tronPort = demoPort('DEMO_TRON_PORT', process.env.DEMO_TRON_PORT);
  // Its own database, never the checkout's (.env, DATABASE_URL): a demo must not touch real data.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'usdt-demo-chain-'));
  const anvil = await startAnvil({ args: ['--block-time', '1'], port: anvilPort });
  // The demo's sender: an address anvil lets us act as (its dev accounts are the test mnemonic's, so our users' own addresses).
  const sender = '0x000000000000000000000000000000000000bEEF';
  await anvil.rpc('anvil_impersonateAccount', [sender]);
  await anvil.rpc('anvil_setBalance', [sender, '0x56BC75E2D63100000']);
  const tokens = { bsc: await anvil.deployToken(18), polygon: await anvil.deployToken(6), tron: await anvil.deployToken(6) };
  await anvil.mint(tokens.bsc, sender, 10n ** 6n * 10n ** 18n);
  await anvil.mint(tokens.polygon, sender, 10n ** 6n * 10n ** 6n);
  await anvil.mint(tokens.tron, sender, 10n ** 6n * 10n ** 6n);
  const tron = await startTronFake(anvil.url, { port: tronPort });

  mkdirSync(DEMO_DATA_DIR, { recursive: true });
  const state: DemoChainState = {
    rpcUrl: anvil.url,
    sender,
    tronApiUrl: tron.url,
    tokens: { bsc: { address: tokens.bsc, decimals: 18 }, polygon: { address: tokens.polygon, decimals: 6 }, tron: { address: tokens.tron, decimals: 6 } },
  };
  writeFileSync(demoStatePath(), JSON.stringify(state, null, 2));

  // The hot wallet of the test mnemonic holds gas and tokens to pay withdrawals from.
  await anvil.rpc('anvil_setBalance', [TEST_HOT_EVM_ADDRESS, '0x56BC75E2D63100000']);
  await anvil.mint(tokens.bsc, TEST_HOT_EVM_ADDRESS, 10n ** 5n * 10n ** 18n);
  await anvil.mint(tokens.polygon, TEST_HOT_EVM_ADDRESS, 10n ** 5n * 10n ** 6n);

  const port = process.env.PORT ?? '3000';
  const signerToken = randomBytes(32).toString('hex');
  const env = demoAppEnv(process.env, { dataDir, port, anvilUrl: anvil.url, tronUrl: tron.url, tokens, signerToken });
  // cwd: the demo's own directory, where no .env is (the server reads ./.env).
  const app = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], { cwd: dataDir, env, stdio: 'inherit' });
  const mnemonicFile = path.join(dataDir, 'signer-mnemonic');
  writeFileSync(mnemonicFile, `${TEST_MNEMONIC}\n`, { mode: 0o600 });
  const signerEnv = demoSignerEnv(process.env, { dataDir, port, anvilUrl: anvil.url, tokens, signerToken, mnemonicFile });
  // tsx resolved from here: the signer runs in the demo's directory, where no node_modules is.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  const signer = spawn(process.execPath, ['--import', tsx, path.join(root, 'apps/signer/src/main.ts')], { cwd: dataDir, env: signerEnv, stdio: 'inherit' });
  console.log(`
Self-custody demo (test mnemonic, local chain ${anvil.url}, Tron fake ${tron.url}, data in ${dataDir})
  App:    http://localhost:${port}  (sign up, then Deposit: your permanent address is shown)
  Admin:  ${env.ADMIN_EMAIL} / ${env.ADMIN_PASSWORD} -> Custody
  Send a deposit to the address the page shows:
    npm run cli -- chain:send --network bsc --to ADDRESS --amount 25
    (--network polygon, or tron with the T… address)
  BSC credits after 5 blocks, Polygon after 8, Tron once solidified (19); a block a second.
  Withdrawals: Admin -> Withdrawals -> Approve; the signer (running beside the app, hot wallet
  ${TEST_HOT_EVM_ADDRESS}) pays BSC and Polygon ones on the local chain.
`);
  const stop = async () => {
    signer.kill('SIGTERM');
    app.kill('SIGTERM');
    await tron.close();
    await anvil.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  app.on('exit', (code) => {
    signer.kill('SIGTERM');
    void tron.close();
    void anvil.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(code ?? 0);
    });
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
