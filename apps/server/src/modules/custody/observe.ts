import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Tx } from '../../db/types';
import { MAX_AUTO_CREDIT_MICRO, microOf, MIN_DEPOSIT_MICRO } from './amounts';
import type { NetworkConfig } from './config';
import type { TransferLog } from './rpc/client';
import { movePayments } from '../payments/service';
import './table';

export interface OwnedLog extends TransferLog {
  userId: bigint;
}

/** Another process moved the cursor first: this range's work is dropped (its own will do). */
export class CursorMoved extends Error {}

/**
 * Stores one range read whole, in one transaction: the cursor moves from `from − 1` to `to` (only
 * from where this watcher found it, so two writers cannot both advance it), the hashes of `to` and
 * of every block with a log are kept for the fork check, and each log becomes an observation once
 * (a duplicate, a log read again after a rewind: nothing new; an observation orphaned by a rewind
 * whose block turns out canonical after all: seen again). New observations claim the user's open
 * payment of that network, which then shows them as confirming.
 */
export async function storeRange(
  tx: Tx,
  net: NetworkConfig,
  r: { from: bigint; to: bigint; hashes: Map<bigint, string>; head: bigint },
  logs: OwnedLog[],
  log?: FastifyBaseLogger,
): Promise<number> {
  const moved = await tx
    .updateTable('chain_cursors')
    .set({ scanned_to: r.to, updated_at: new Date() })
    .where('network', '=', net.network)
    .where('scanned_to', '=', r.from - 1n)
    .where('halted', '=', false)
    .returning('network')
    .executeTakeFirst();
  if (!moved) throw new CursorMoved(`${net.network}: the cursor is no longer at ${r.from - 1n}`);

  const blocks = [...r.hashes].map(([number, hash]) => ({ network: net.network, number, hash }));
  for (let i = 0; i < blocks.length; i += 1000)
    await tx
      .insertInto('chain_blocks')
      .values(blocks.slice(i, i + 1000))
      .onConflict((oc) => oc.columns(['network', 'number']).doUpdateSet((eb) => ({ hash: eb.ref('excluded.hash') })))
      .execute();

  // One row per log, whatever the node repeated.
  const unique = new Map<string, OwnedLog>();
  for (const l of logs) unique.set(`${l.blockHash}:${l.txHash}:${l.logIndex}`, l);
  const stored: {
    id: bigint;
    user_id: bigint;
    block_number: bigint;
    amount: bigint;
    tx_hash: string;
    payment_id: bigint | null;
    status: string;
    raw_amount: string;
  }[] = [];
  const rows = [...unique.values()].map((l) => {
    const micro = microOf(l.raw, net.decimals);
    return {
      network: net.network,
      block_number: l.blockNumber,
      block_hash: l.blockHash,
      tx_hash: l.txHash,
      log_index: l.logIndex,
      token: l.token,
      from_address: l.from,
      to_address: l.to,
      user_id: l.userId,
      raw_amount: l.raw.toString(),
      // Beyond the automatic bound the amount is kept in raw only (held: an admin looks at it).
      amount: micro > MAX_AUTO_CREDIT_MICRO ? 0n : micro,
      status: micro > MAX_AUTO_CREDIT_MICRO ? ('held' as const) : ('seen' as const),
      note: micro > MAX_AUTO_CREDIT_MICRO ? 'amount above the automatic credit bound' : null,
    };
  });
  for (let i = 0; i < rows.length; i += 500) {
    const res = await tx
      .insertInto('chain_observations')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) =>
        oc
          .columns(['network', 'block_hash', 'tx_hash', 'log_index'])
          .doUpdateSet({ status: 'seen', orphaned_at: null, note: null })
          .where('chain_observations.status', '=', 'orphaned'),
      )
      .returning(['id', 'user_id', 'block_number', 'amount', 'tx_hash', 'payment_id', 'status', 'raw_amount'])
      .execute();
    stored.push(...res);
  }
  // Logged inside the transaction: a rollback means the range is read again and logged again, never lost.
  for (const o of stored.filter((x) => x.status === 'held'))
    log?.warn(
      { network: net.network, observationId: String(o.id), userId: String(o.user_id), txHash: o.tx_hash, rawAmount: o.raw_amount },
      'custody transfer held: above the automatic credit bound, waits for an admin',
    );
  await claimOpenPayments(
    tx,
    net,
    stored.filter((o) => o.status === 'seen' && o.payment_id === null && o.amount >= MIN_DEPOSIT_MICRO),
    r.head,
  );
  return stored.length;
}

/**
 * A transfer seen while the user has a payment open on that network belongs to it: the newest
 * open one (waiting or confirming, window not over) shows it as confirming with its count. A
 * payment partly paid is still open until its window ends: a top-up completes it (credited, it
 * takes the payment to finished) instead of opening a payment of its own; it stays partially_paid
 * meanwhile, since a credited payment does not go back to confirming. A
 * transfer after the window, or with nothing open, stays unclaimed and becomes its own finished
 * payment when credited.
 */
async function claimOpenPayments(
  tx: Tx,
  net: NetworkConfig,
  seen: { id: bigint; user_id: bigint; block_number: bigint; tx_hash: string }[],
  head: bigint,
): Promise<void> {
  if (!seen.length) return;
  const users = [...new Set(seen.map((o) => o.user_id))];
  const open = await sql<{ id: bigint; user_id: bigint; status: string }>`
    select distinct on (user_id) id, user_id, status from payments
    where provider = 'chain' and pay_currency = ${net.payCurrency} and status in ('waiting', 'confirming', 'partially_paid') and window_end > now()
      and user_id in (${sql.join(users)})
    order by user_id, created_at desc, id desc`.execute(tx);
  const byUser = new Map(open.rows.map((p) => [p.user_id, p]));
  // The latest transfer of each payment sets its hash and count (as one after the other would).
  const claims = new Map<bigint, { tx: string; confirmations: number }>();
  for (const o of seen) {
    const p = byUser.get(o.user_id);
    if (!p) continue;
    await tx.updateTable('chain_observations').set({ payment_id: p.id }).where('id', '=', o.id).execute();
    if (p.status !== 'partially_paid') claims.set(p.id, { tx: o.tx_hash, confirmations: Math.max(0, Number(head - o.block_number + 1n)) });
  }
  // Through the one status writer (payments/status-writer.ts): waiting → confirming, or confirming again with the new count.
  await movePayments(
    tx,
    [...claims].map(([id, c]) => ({
      id,
      status: 'confirming' as const,
      from: ['waiting', 'confirming'] as const,
      txHash: c.tx,
      confirmations: c.confirmations,
    })),
  );
}
