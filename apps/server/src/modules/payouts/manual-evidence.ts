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
 * own wallet), not already recorded for another withdrawal. Tron is read through the custody
 * module's Tron client (its JSON-RPC answers a txID, its solidity node says what is final). Where
 * the network has no endpoint the hash is checked for its form only (payout-hash.ts).
 */
export async function checkManualPayout(ctx: AppContext, id: bigint, txHash: string): Promise<void> {
  const w = await ctx.db.selectFrom('withdrawals').select(['network', 'wallet_address', 'receive_amount', 'status']).where('id', '=', id).executeTakeFirst();
  if (!w || w.status !== 'pending') return; // the action itself answers 404 / 409
  const used = await ctx.db.selectFrom('withdrawals').select('id').where('tx_hash', '=', txHash.toLowerCase()).where('id', '<>', id).executeTakeFirst();
  if (used) throw new AppError('CONFLICT', `This transaction is already recorded for withdrawal #${used.id}`);
  const net = custodyRuntime(ctx).networks.get(CUSTODY_NETWORK_OF[w.network]);
  if (!net) return;
  const tron = net.config.family === 'tron';
  const to = addressHex(net.config.family, w.wallet_address) ?? (tron ? null : w.wallet_address.toLowerCase());
  if (!to) throw fieldError('tx_hash', 'The withdrawal address is not a valid Tron address, so no transaction can be matched to it');
  // Tron's depth stands for solidification; a pasted hash is also held to the solidity node's own
  // answer, since the admin's word is the only other evidence there is.
  const config = tron ? { ...net.config, finality: 'finalized' as const } : net.config;
  const ev = await payoutEvidence(net.client, config, txHash, { to, raw: rawOf(BigInt(w.receive_amount), net.config.decimals) });
  if (ev.state === 'final') return;
  const why =
    ev.state === 'missing'
      ? 'The network does not know this transaction'
      : ev.state === 'reverted'
        ? 'This transaction failed on chain'
        : ev.state === 'mismatch'
          ? 'This transaction does not pay the receive amount to the withdrawal address'
          : tron
            ? `This transaction is not final yet: not solidified (${ev.confirmations} of ${ev.required} confirmations)`
            : `This transaction is not final yet (${ev.confirmations} of ${ev.required} confirmations)`;
  throw fieldError('tx_hash', why);
}
