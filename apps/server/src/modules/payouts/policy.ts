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
 * it can complete the payout from chain evidence, with the family's hot address known (the evidence
 * names it as the sender): always for EVM (required by the configuration), for Tron once
 * CUSTODY_HOT_TRON_ADDRESS is set (without it Tron withdrawals stay manual).
 */
export function signerPays(config: Config, network: WithdrawalNetwork): boolean {
  const n = watchedNetwork(config, network);
  if (config.payments.payouts.mode !== 'signer' || n === undefined) return false;
  return n.family === 'evm' || config.payments.payouts.hot.tron !== undefined;
}
