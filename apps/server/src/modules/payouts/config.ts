import { z } from 'zod';
import { isValidTronAddress } from '@app/core';

/**
 * Who pays approved withdrawals (custody.md section 6): `manual` (an admin pays from their own
 * wallet and pastes the hash, the default) or `signer` (a separate process holding the keys pays
 * on chain). The server still holds no private key: only the hot addresses (public) and the hash
 * of the signer's token.
 */
export const ZPayoutsEnv = {
  PAYOUTS: z.enum(['manual', 'signer']).default('manual'),
  /** sha256 (hex) of the signer's SIGNER_TOKEN: the server keeps the hash only */
  SIGNER_TOKEN_HASH: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be the sha256 of the signer token as 64 hex digits')
    .optional(),
  /** the hot wallet the signer pays from (m/44'/60'/1'/0/0; `custody:xpub` prints it) */
  CUSTODY_HOT_EVM_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x… address')
    .optional(),
  /** where the signer sweeps once the hot wallet holds its target; the server records a sweep there only to this address */
  SWEEP_COLD_EVM_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x… address')
    .optional(),
  /** the Tron cold wallet: the server records a Tron sweep only to the Tron hot wallet or this address */
  SWEEP_COLD_TRON_ADDRESS: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a T… address')
    .optional(),
  /** the Tron hot wallet (m/44'/195'/1'/0/0): with PAYOUTS=signer, the signer pays Tron withdrawals once it is set */
  CUSTODY_HOT_TRON_ADDRESS: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a T… address')
    .optional(),
};

type PayoutsEnv = z.output<z.ZodObject<typeof ZPayoutsEnv>>;

export interface PayoutsConfig {
  mode: 'manual' | 'signer';
  signerTokenHash: string | undefined;
  /** the hot addresses by family: EVM as lowercase 0x hex, Tron in its T… form */
  hot: { evm?: string; tron?: string };
  /** the cold wallet sweeps may go to (lowercase 0x hex) */
  coldEvm: string | undefined;
  /** the Tron cold wallet, in its T… form */
  coldTron: string | undefined;
}

export class PayoutsConfigError extends Error {}

/**
 * Checked as a whole: the signer needs the chain gateway (the server's watcher is what completes a
 * payout, from chain evidence), the token's hash, and the hot address of each watched family.
 */
export function buildPayoutsConfig(e: PayoutsEnv, custody: { networks: readonly { network: string; family: 'evm' | 'tron' }[] }): PayoutsConfig {
  const hot: PayoutsConfig['hot'] = {};
  if (e.CUSTODY_HOT_EVM_ADDRESS) hot.evm = e.CUSTODY_HOT_EVM_ADDRESS.toLowerCase();
  if (e.CUSTODY_HOT_TRON_ADDRESS) {
    if (!isValidTronAddress(e.CUSTODY_HOT_TRON_ADDRESS)) throw new PayoutsConfigError('CUSTODY_HOT_TRON_ADDRESS is not a valid Tron address (checksum)');
    hot.tron = e.CUSTODY_HOT_TRON_ADDRESS;
  }
  if (e.SWEEP_COLD_TRON_ADDRESS && !isValidTronAddress(e.SWEEP_COLD_TRON_ADDRESS))
    throw new PayoutsConfigError('SWEEP_COLD_TRON_ADDRESS is not a valid Tron address (checksum)');
  if (e.PAYOUTS === 'signer') {
    if (!custody.networks.length) throw new PayoutsConfigError('PAYOUTS=signer needs PAYMENTS_GATEWAY=chain with at least one network');
    if (!e.SIGNER_TOKEN_HASH) throw new PayoutsConfigError('SIGNER_TOKEN_HASH is required when PAYOUTS=signer');
    // The signer pays BSC and Polygon, and Tron once CUSTODY_HOT_TRON_ADDRESS is set (else Tron stays manual).
    const evm = custody.networks.find((n) => n.family === 'evm');
    if (evm && !hot.evm) throw new PayoutsConfigError(`CUSTODY_HOT_EVM_ADDRESS is required when PAYOUTS=signer watches ${evm.network}`);
  }
  return {
    mode: e.PAYOUTS,
    signerTokenHash: e.SIGNER_TOKEN_HASH?.toLowerCase(),
    hot,
    coldEvm: e.SWEEP_COLD_EVM_ADDRESS?.toLowerCase(),
    coldTron: e.SWEEP_COLD_TRON_ADDRESS,
  };
}
