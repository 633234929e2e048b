import type { AppContext } from '../../context';
import { fieldError, AppError } from '../../lib/errors';
import { addressHex, custodyRuntime, rawOf } from '../custody/service';
import { payoutEvidence } from './evidence';
import { CUSTODY_NETWORK_OF } from './policy';
import '../withdrawals/table';

/**
 * A manual payout's pasted hash is held to the signer's evidence wherever the server watches the
 * network (custody.md section 6): a final, successful transaction with a Transfer of the token to the
 * withdrawal's address for exactly its receive amount (from any sender: the admin paid from their
 * own wallet), not already recorded for another withdrawal. Where the network has no endpoint the
 * hash is checked for its form only (payout-hash.ts). Tron's evidence reader is not built yet.
 */
export async function checkManualPayout(ctx: AppContext, id: bigint, txHash: string): Promise<void> {
  const w = await ctx.db.selectFrom('withdrawals').select(['network', 'wallet_address', 'receive_amount', 'status']).where('id', '=', id).executeTakeFirst();
  if (!w || w.status !== 'pending') return; // the action itself answers 404 / 409
  const used = await ctx.db.selectFrom('withdrawals').select('id').where('tx_hash', '=', txHash.toLowerCase()).where('id', '<>', id).executeTakeFirst();
  if (used) throw new AppError('CONFLICT', `This transaction is already recorded for withdrawal #${used.id}`);
  const net = custodyRuntime(ctx).networks.get(CUSTODY_NETWORK_OF[w.network]);
  if (!net || net.config.family !== 'evm') return;
  const to = addressHex(net.config.family, w.wallet_address) ?? w.wallet_address.toLowerCase();
  const ev = await payoutEvidence(net.client, net.config, txHash, { to, raw: rawOf(BigInt(w.receive_amount), net.config.decimals) });
  if (ev.state === 'final') return;
  const why =
    ev.state === 'missing'
      ? 'The network does not know this transaction'
      : ev.state === 'reverted'
        ? 'This transaction failed on chain'
        : ev.state === 'mismatch'
          ? 'This transaction does not pay the receive amount to the withdrawal address'
          : `This transaction is not final yet (${ev.confirmations} of ${ev.required} confirmations)`;
  throw fieldError('tx_hash', why);
}
