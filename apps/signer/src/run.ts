import type { SignerConfig } from './config';
import { connectNetwork, type EvmNetwork } from './chain';
import { deriveKeys } from './keys';
import { PayoutSigner, type Log } from './payouts';
import { serverApi, type ServerApi } from './server-api';
import { openStore } from './store';
import { Sweeper } from './sweeps';
import { TronPayer } from './tron-payouts';
import { TronSweeper } from './tron-sweeps';

export interface RunningSigner {
  hotAddress: string;
  signer: PayoutSigner;
  stop(): Promise<void>;
}

/** Builds the signer (its database, its networks, its keys) and runs a pass every SIGNER_POLL_MS. */
export async function buildSigner(config: SignerConfig, mnemonic: string, log: Log, opts: { api?: ServerApi; now?: () => Date } = {}) {
  const keys = deriveKeys(mnemonic, config.ownScan);
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const networks = new Map<string, EvmNetwork>();
  for (const n of config.networks) networks.set(n.network, await connectNetwork(n, keys.hot));
  const api = opts.api ?? serverApi(config.serverUrl, config.token);
  const signer = new PayoutSigner(config, store, api, networks, keys.own, log, opts.now);
  if (config.tron) signer.tron = new TronPayer(config, config.tron, store, api, keys.tronHot, keys.own, log, opts.now);
  const sweeper = new Sweeper(config, store, api, networks, keys.deposits, log);
  if (config.tron) sweeper.tron = new TronSweeper(config, config.tron, store, api, keys.tronHot, keys.tronDeposits, log);
  return { signer, sweeper, store, networks, hot: keys.hot, tronHot: keys.tronHot.address };
}

export async function startSigner(config: SignerConfig, mnemonic: string, log: Log): Promise<RunningSigner> {
  const { signer, sweeper, store, hot } = await buildSigner(config, mnemonic, log);
  let stopping = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    // Payouts first: a sweep's gas top-up never delays a user's withdrawal.
    running = signer
      .tick()
      .then(() => sweeper.tick())
      .then(() => undefined)
      .catch((err: unknown) => log.error({ err: String((err as Error).message ?? err) }, 'signer pass failed'))
      .finally(() => {
        if (!stopping) timer = setTimeout(loop, config.pollMs);
      });
  };
  loop();
  return {
    hotAddress: hot.address,
    signer,
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      await running;
      await store.close();
    },
  };
}
