import type { Tx } from '../../db/types';
import { movePayments } from './status-writer';
import '../custody/table';

/**
 * An admin takes a transfer off the list of what waits for them without crediting it: dust under
 * one micro-USDT (nothing to credit), a transfer held above the automatic credit bound, or one held
 * because the chain's endpoints disagreed on it (a made-up log, most likely). The record
 * stays (the tokens are still on the address and in the reconciliation); its payment, if it has
 * one, stays `failed` and leaves the review queue. Returns the states for the caller's audit entry,
 * or null when no such transfer waits.
 */
export async function dismissObservation(tx: Tx, observationId: bigint): Promise<{ before: unknown; after: unknown; network: string; txHash: string } | null> {
  const o = await tx.selectFrom('chain_observations').selectAll().where('id', '=', observationId).forUpdate().executeTakeFirst();
  if (!o || (o.status !== 'below_minimum' && o.status !== 'held')) return null;
  // A transfer held because the chain's endpoints disagreed keeps that reason (custody/quorum.ts; the reconciliation leaves it out).
  const why = o.status === 'held' ? (o.note?.startsWith('endpoints disagree: ') ? o.note : 'held above the automatic credit bound') : 'below the minimum';
  const note = `dismissed by an admin (${why})`;
  await tx.updateTable('chain_observations').set({ status: 'dismissed', note }).where('id', '=', o.id).execute();
  if (o.payment_id !== null)
    await movePayments(tx, [{ id: o.payment_id, status: 'failed', by: 'admin', from: ['failed'], needsReview: false, extraSet: { dismissed: note } }]);
  return {
    before: { status: o.status, raw_amount: o.raw_amount, amount: o.amount },
    after: { status: 'dismissed', note },
    network: o.network,
    txHash: o.tx_hash,
  };
}
