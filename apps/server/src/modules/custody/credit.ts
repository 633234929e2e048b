import { microToDecimal } from '@app/core';
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/types';
import { chainKey, recordChainDeposits } from '../payments/service';
import { MIN_DEPOSIT_MICRO } from './amounts';
import type { NetworkConfig } from './config';
import { displayAddress } from './derive';
import type { ChainObservationsTable } from './table';
import './table';

export type CreditOutcome = 'credited' | 'below_minimum' | 'duplicate' | 'skipped';
type Observation = Selectable<ChainObservationsTable>;

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
 * Credits several final observations in one transaction and a fixed number of statements (what
 * keeps the watcher's own cost near the node's: a dozen statements a transfer made 10,000 credits
 * take 25 s), each as creditObservation would. If the batch fails, each is tried in a transaction
 * of its own, so one bad observation cannot hold back the others.
 */
export async function creditBatch(ctx: AppContext, net: NetworkConfig, ids: bigint[], head: bigint): Promise<CreditOutcome[]> {
  const run = (batch: bigint[]) =>
    ctx.db.transaction().execute(async (tx) => {
      const cursor = await tx.selectFrom('chain_cursors').select(['halted', 'final_height']).where('network', '=', net.network).forShare().executeTakeFirst();
      if (!cursor || cursor.halted) return { out: batch.map(() => 'skipped' as const), due: new Map<bigint, Observation>() };
      const rows = await tx.selectFrom('chain_observations').selectAll().where('id', 'in', batch).orderBy('id').forUpdate().execute();
      const due = new Map(rows.filter((o) => o.status === 'seen' && o.block_number <= cursor.final_height).map((o) => [o.id, o]));
      const outcomes = new Map<bigint, CreditOutcome>();
      for (const round of rounds(batch.flatMap((id) => due.get(id) ?? []))) for (const [id, o] of await creditRound(tx, net, round, head)) outcomes.set(id, o);
      return { out: batch.map((id) => outcomes.get(id) ?? 'skipped'), due };
    });
  // Logged once committed: a line for a credit that rolled back would be a false record.
  const logged = async (batch: bigint[]) => {
    const { out, due } = await run(batch);
    logCredits(ctx, net, batch, out, due);
    return out;
  };
  try {
    return await logged(ids);
  } catch (err) {
    if (ids.length === 1) throw err;
    const out: CreditOutcome[] = [];
    for (const id of ids)
      out.push(
        await logged([id]).then(
          (r) => r[0]!,
          () => 'skipped' as const,
        ),
      );
    return out;
  }
}

/** One line per transfer a batch settled: credited (info), under the minimum or a duplicate (warn). */
function logCredits(ctx: AppContext, net: NetworkConfig, ids: bigint[], outcomes: CreditOutcome[], rows: Map<bigint, Observation>): void {
  ids.forEach((id, i) => {
    const outcome = outcomes[i]!;
    const o = rows.get(id);
    if (outcome === 'skipped' || !o) return;
    const line = {
      network: net.network,
      observationId: String(id),
      outcome,
      userId: String(o.user_id),
      amount: microToDecimal(o.amount),
      txHash: o.tx_hash,
      logIndex: o.log_index,
    };
    if (outcome === 'credited') ctx.log.info(line, 'custody deposit credited');
    else
      ctx.log.warn(
        line,
        outcome === 'below_minimum'
          ? 'custody deposit below the minimum: not credited, waits for an admin'
          : 'custody deposit already credited: not credited again',
      );
  });
}

/**
 * Splits a batch so that no round holds two observations of one transfer (the same transaction,
 * address and amount, or the same ledger key): the second must see the first's outcome, as it
 * would one after the other. Only a chain that reorganised under an admin's resume has such pairs.
 */
function rounds(obs: Observation[]): Observation[][] {
  const out: { list: Observation[]; seen: Set<string> }[] = [];
  for (const o of obs) {
    const marks = [`t:${o.tx_hash}:${o.to_address}:${o.raw_amount}`, `k:${chainKey(o.network, o.tx_hash, o.log_index)}`];
    let round = out.find((r) => !marks.some((m) => r.seen.has(m)));
    if (!round) out.push((round = { list: [], seen: new Set() }));
    round.list.push(o);
    for (const m of marks) round.seen.add(m);
  }
  return out.map((r) => r.list);
}

async function creditRound(tx: Tx, net: NetworkConfig, obs: Observation[], head: bigint): Promise<Map<bigint, CreditOutcome>> {
  const outcomes = new Map<bigint, CreditOutcome>();
  const now = new Date();

  // The same transaction credited from another block (only after a reorg an admin resumed from,
  // where it may come back at another log index): the money arrived once.
  const twins = await sql<{ id: bigint; twin: bigint }>`
    select o.id, min(t.id) as twin from chain_observations o
    join chain_observations t on t.network = o.network and t.tx_hash = o.tx_hash and t.to_address = o.to_address
      and t.raw_amount = o.raw_amount and t.block_hash <> o.block_hash and t.status = 'credited'
    where o.id = any(${obs.map((o) => o.id.toString())}::bigint[])
    group by o.id`.execute(tx);
  const orphans = twins.rows.map((t) => ({ id: BigInt(t.id), note: `transaction already credited as observation ${t.twin}` }));
  for (const t of orphans) outcomes.set(t.id, 'duplicate');

  const fresh = obs.filter((o) => !outcomes.has(o.id));
  const res = await recordChainDeposits(
    tx,
    fresh.map((o) => {
      const below = o.amount < MIN_DEPOSIT_MICRO;
      return {
        key: chainKey(net.network, o.tx_hash, o.log_index),
        userId: o.user_id,
        network: net.network,
        payCurrency: net.payCurrency,
        amount: o.amount,
        paymentId: o.payment_id,
        address: displayAddress(net.family, o.to_address),
        txHash: o.tx_hash,
        confirmations: Math.max(Number(head - o.block_number + 1n), net.confirmations),
        requiredConfirmations: net.confirmations,
        credit: !below,
        reason: below ? `below the minimum deposit (${microToDecimal(o.amount)} USDT): not credited` : undefined,
      };
    }),
  );
  const settled: { id: bigint; status: 'credited' | 'below_minimum'; paymentId: bigint }[] = [];
  fresh.forEach((o, i) => {
    const below = o.amount < MIN_DEPOSIT_MICRO;
    if (!below && !res[i]!.credited) {
      // The key was posted before: a replay of a credited log. Nothing moves.
      orphans.push({ id: o.id, note: 'ledger key already posted' });
      outcomes.set(o.id, 'duplicate');
    } else {
      settled.push({ id: o.id, status: below ? 'below_minimum' : 'credited', paymentId: res[i]!.paymentId });
      outcomes.set(o.id, below ? 'below_minimum' : 'credited');
    }
  });

  if (orphans.length)
    await sql`
      update chain_observations o set status = 'orphaned', orphaned_at = ${now}, note = x.note
      from unnest(${orphans.map((x) => x.id.toString())}::bigint[], ${orphans.map((x) => x.note)}::text[]) x(id, note)
      where o.id = x.id`.execute(tx);
  if (settled.length)
    await sql`
      update chain_observations o set status = x.status, final_at = ${now}, payment_id = x.payment_id
      from unnest(${settled.map((x) => x.id.toString())}::bigint[], ${settled.map((x) => x.status)}::text[], ${settled.map((x) => x.paymentId.toString())}::bigint[])
        x(id, status, payment_id)
      where o.id = x.id`.execute(tx);
  return outcomes;
}
