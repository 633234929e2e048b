import { microToDecimal } from '@app/core';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/types';
import { chainKey, recordChainDeposit } from '../payments/service';
import { MIN_DEPOSIT_MICRO } from './amounts';
import type { NetworkConfig } from './config';
import { displayAddress } from './derive';
import './table';

export type CreditOutcome = 'credited' | 'below_minimum' | 'duplicate' | 'skipped';

/**
 * Credits one observation that is final, in its own transaction (a kill at any point leaves it
 * either done or still `seen`, and the next tick does it; the ledger key makes a second post a
 * no-op). Under the observation's row lock: it must still be `seen`, at or under the credited line
 * of a network that is not halted (the cursor row is read `for share`, so a halt waits for an
 * ongoing credit and no credit starts after it).
 */
export async function creditObservation(ctx: AppContext, net: NetworkConfig, id: bigint, head: bigint): Promise<CreditOutcome> {
  return (await creditBatch(ctx, net, [id], head))[0]!;
}

/**
 * Credits several final observations in one transaction (one commit for many: what keeps the
 * watcher's own cost under the node's), each as creditObservation would. If the batch fails, each
 * is tried in a transaction of its own, so one bad observation cannot hold back the others.
 */
export async function creditBatch(ctx: AppContext, net: NetworkConfig, ids: bigint[], head: bigint): Promise<CreditOutcome[]> {
  const run = (batch: bigint[]) =>
    ctx.db.transaction().execute(async (tx) => {
      const cursor = await tx.selectFrom('chain_cursors').select(['halted', 'final_height']).where('network', '=', net.network).forShare().executeTakeFirst();
      const out: CreditOutcome[] = [];
      for (const id of batch) out.push(cursor && !cursor.halted ? await creditInTx(tx, net, id, head, cursor.final_height) : 'skipped');
      return out;
    });
  try {
    return await run(ids);
  } catch (err) {
    if (ids.length === 1) throw err;
    const out: CreditOutcome[] = [];
    for (const id of ids)
      out.push(
        await run([id]).then(
          (r) => r[0]!,
          () => 'skipped' as const,
        ),
      );
    return out;
  }
}

async function creditInTx(tx: Tx, net: NetworkConfig, id: bigint, head: bigint, finalHeight: bigint): Promise<CreditOutcome> {
  const o = await tx.selectFrom('chain_observations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!o || o.status !== 'seen' || o.block_number > finalHeight) return 'skipped';
  const now = new Date();

  // The same transaction credited from another block (only after a reorg an admin resumed from,
  // where it may come back at another log index): the money arrived once.
  const twin = await tx
    .selectFrom('chain_observations')
    .select('id')
    .where('network', '=', net.network)
    .where('tx_hash', '=', o.tx_hash)
    .where('to_address', '=', o.to_address)
    .where('raw_amount', '=', o.raw_amount)
    .where('block_hash', '<>', o.block_hash)
    .where('status', '=', 'credited')
    .executeTakeFirst();
  if (twin) {
    await tx
      .updateTable('chain_observations')
      .set({ status: 'orphaned', orphaned_at: now, note: `transaction already credited as observation ${twin.id}` })
      .where('id', '=', o.id)
      .execute();
    return 'duplicate';
  }

  const below = o.amount < MIN_DEPOSIT_MICRO;
  const confirmations = Number(head - o.block_number + 1n);
  const res = await recordChainDeposit(tx, {
    key: chainKey(net.network, o.tx_hash, o.log_index),
    userId: o.user_id,
    network: net.network,
    payCurrency: net.payCurrency,
    amount: o.amount,
    paymentId: o.payment_id,
    address: displayAddress(net.family, o.to_address),
    txHash: o.tx_hash,
    confirmations: Math.max(confirmations, net.confirmations),
    requiredConfirmations: net.confirmations,
    credit: !below,
    reason: below ? `below the minimum deposit (${microToDecimal(o.amount)} USDT): not credited` : undefined,
  });
  if (!below && !res.credited) {
    // The key was posted before: a replay of a credited log. Nothing moves.
    await tx
      .updateTable('chain_observations')
      .set({ status: 'orphaned', orphaned_at: now, note: 'ledger key already posted' })
      .where('id', '=', o.id)
      .execute();
    return 'duplicate';
  }
  await tx
    .updateTable('chain_observations')
    .set({ status: below ? 'below_minimum' : 'credited', final_at: now, payment_id: res.paymentId })
    .where('id', '=', o.id)
    .execute();
  return below ? 'below_minimum' : 'credited';
}
