import { INVALID_TX_HASH_MESSAGE, TX_HASH_PATTERN } from '@app/core/schemas/admin';
import type { Executor } from '../../db/types';
import { fieldError } from '../../lib/errors';
import './table';

/**
 * A payout's hash has the form of the withdrawal's chain: 0x-prefixed on BSC and Polygon, bare on
 * Tron (the request schema only knows it is one of the two). An unknown withdrawal passes here and
 * is refused by the action itself.
 */
export async function checkPayoutHash(db: Executor, id: bigint, txHash: string): Promise<void> {
  const w = await db.selectFrom('withdrawals').select('network').where('id', '=', id).executeTakeFirst();
  if (w && !TX_HASH_PATTERN[w.network === 'TRON' ? 'tron' : 'evm'].test(txHash)) {
    throw fieldError(
      'tx_hash',
      `${INVALID_TX_HASH_MESSAGE} for ${w.network === 'TRON' ? 'Tron (64 hex digits, no 0x)' : `${w.network === 'BSC' ? 'BSC' : 'Polygon'} (0x and 64 hex digits)`}`,
    );
  }
}
