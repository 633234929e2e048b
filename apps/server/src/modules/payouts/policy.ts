import type { TCustodyNetwork } from '@app/core';
import type { Config } from '../../config';
import type { NetworkConfig } from '../custody/service';

/** A withdrawal's network (the spec's names) as the custody configuration names it. */
export const CUSTODY_NETWORK_OF = { BSC: 'bsc', POLYGON: 'polygon', TRON: 'tron' } as const satisfies Record<string, TCustodyNetwork>;
export type WithdrawalNetwork = keyof typeof CUSTODY_NETWORK_OF;

/** The server's watched network a withdrawal goes out on, when it watches it (it has an RPC endpoint). */
export function watchedNetwork(config: Config, network: WithdrawalNetwork): NetworkConfig | undefined {
  return config.payments.custody.networks.find((n) => n.network === CUSTODY_NETWORK_OF[network]);
}

/**
 * Whether the signer pays withdrawals of this network: PAYOUTS=signer and the server watches it, so
 * it can complete the payout from chain evidence. The signer's Tron signing is not built yet
 * (docs/custody.md, "Payouts"): Tron withdrawals stay manual.
 */
export function signerPays(config: Config, network: WithdrawalNetwork): boolean {
  const n = watchedNetwork(config, network);
  return config.payments.payouts.mode === 'signer' && n !== undefined && n.family === 'evm';
}
