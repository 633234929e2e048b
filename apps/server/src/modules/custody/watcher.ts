import { sql } from 'kysely';
import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import { movePayments } from '../payments/service';
import { creditBatch } from './credit';
import { CursorMoved, storeRange, type OwnedLog } from './observe';
import { RpcError } from './rpc/json-rpc';
import type { ChainClient } from './rpc/client';
import { noteAnswer, noteFailure, noteQuorum } from './node-state';
import { corroborate, holdDisputed, type Claim } from './quorum';
import { custodyRuntime, pause, type NetworkRuntime, type WatchTuning } from './runtime';
import { backoffMs, withRetry } from './retry';
import './table';

/** Credits per transaction: one commit for many, and a kill loses at most one uncommitted batch (redone next tick). */
const CREDIT_BATCH = 200;

/** Stored block hashes kept under the credited line, so a reorg at or under it is noticed. */
const MARGIN = 32n;

export interface TickResult {
  network: TCustodyNetwork;
  head: bigint | null;
  scannedTo: bigint;
  finalHeight: bigint;
  observed: number;
  credited: number;
  orphaned: number;
  /** final transfers held this tick because the endpoints disagree on them (quorum.ts) */
  disputed: number;
  /** final transfers not credited this tick because too few endpoints confirmed them (asked again next tick) */
  unconfirmed: number;
  halted: boolean;
  /** why the tick stopped early, if it did */
  stopped?: 'halted' | 'node_behind' | 'reorg' | 'no_finalized';
}

export { backoffMs, withRetry } from './retry';

async function loadCursor(ctx: AppContext, n: NetworkRuntime, head: bigint, tuning: WatchTuning) {
  const existing = await ctx.db.selectFrom('chain_cursors').selectAll().where('network', '=', n.config.network).executeTakeFirst();
  if (existing) return existing;
  const start = tuning.startAt ? tuning.startAt(head, n.config) : head - 2n * BigInt(n.config.confirmations);
  const from = start > 0n ? start : 0n;
  await ctx.db
    .insertInto('chain_cursors')
    .values({ network: n.config.network, scanned_to: from - 1n, final_height: from - 1n })
    .onConflict((oc) => oc.column('network').doNothing())
    .execute();
  return ctx.db.selectFrom('chain_cursors').selectAll().where('network', '=', n.config.network).executeTakeFirstOrThrow();
}

async function halt(ctx: AppContext, network: TCustodyNetwork, reason: string): Promise<void> {
  await ctx.db
    .updateTable('chain_cursors')
    .set({ halted: true, halted_reason: reason.slice(0, 500), halted_at: new Date(), updated_at: new Date() })
    .where('network', '=', network)
    .where('halted', '=', false)
    .execute();
  ctx.log.error({ network, reason }, 'custody network halted: crediting stopped until an admin resumes it');
}

/**
 * Goes back to `to` after a fork above the credited line: observations above it whose block the
 * node no longer has are orphaned (never credited; a transaction re-included elsewhere is read
 * again as a new observation), the stored hashes above it are forgotten and the cursor moves back,
 * so the range is read again from the node's chain.
 */
async function rewind(ctx: AppContext, network: TCustodyNetwork, to: bigint, canonical: Map<bigint, string>): Promise<number> {
  const orphaned = await ctx.db.transaction().execute(async (tx) => {
    const above = await tx
      .selectFrom('chain_observations')
      .select(['id', 'block_number', 'block_hash'])
      .where('network', '=', network)
      .where('block_number', '>', to)
      .where('status', '=', 'seen')
      .forUpdate()
      .execute();
    const gone = above.filter((o) => canonical.get(o.block_number) !== o.block_hash).map((o) => o.id);
    if (gone.length)
      await tx
        .updateTable('chain_observations')
        .set({ status: 'orphaned', orphaned_at: new Date(), note: 'block left the chain before it was final' })
        .where('id', 'in', gone)
        .execute();
    await tx.deleteFrom('chain_blocks').where('network', '=', network).where('number', '>', to).execute();
    await tx
      .updateTable('chain_cursors')
      .set((eb) => ({ scanned_to: sql`least(${eb.ref('scanned_to')}, ${to})`, updated_at: new Date() }))
      .where('network', '=', network)
      .execute();
    return gone;
  });
  if (orphaned.length)
    ctx.log.warn(
      { network, rewoundTo: String(to), observationIds: orphaned.map(String) },
      'custody transfers orphaned: their block left the chain before it was final',
    );
  return orphaned.length;
}

/**
 * Compares the stored hashes of recent blocks with the node's. Returns 'ok', 'behind' (the node
 * lacks a block we read: wait for it), or the fork: the lowest height that differs and the highest
 * stored height under it that still matches.
 */
async function forkCheck(
  ctx: AppContext,
  network: TCustodyNetwork,
  client: ChainClient,
  tuning: WatchTuning,
  finalHeight: bigint,
): Promise<{ kind: 'ok' } | { kind: 'behind' } | { kind: 'fork'; lowest: bigint; lastMatch: bigint; canonical: Map<bigint, string> }> {
  const stored = await ctx.db
    .selectFrom('chain_blocks')
    .select(['number', 'hash'])
    .where('network', '=', network)
    .where('number', '>', finalHeight - MARGIN)
    .orderBy('number')
    .execute();
  if (!stored.length) return { kind: 'ok' };
  const canonical = await withRetry(tuning, 'block hashes', () => client.blockHashes(stored.map((b) => b.number)));
  const bad = stored.filter((b) => canonical.get(b.number) !== b.hash);
  if (!bad.length) return { kind: 'ok' };
  if (bad.every((b) => !canonical.has(b.number))) return { kind: 'behind' };
  const lowest = bad[0]!.number;
  const matches = stored.filter((b) => b.number < lowest && canonical.get(b.number) === b.hash);
  return { kind: 'fork', lowest, lastMatch: matches.length ? matches[matches.length - 1]!.number : finalHeight, canonical };
}

/** The addresses to match, with their owners: all of them while few, else null (read every transfer, match in the database). */
async function watchedAddresses(ctx: AppContext, n: NetworkRuntime, tuning: WatchTuning): Promise<Map<string, bigint> | null> {
  const count = await ctx.db
    .selectFrom('custody_addresses')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('family', '=', n.config.family)
    .executeTakeFirstOrThrow();
  if (Number(count.n) > tuning.allLogsAbove) return null;
  const rows = await ctx.db.selectFrom('custody_addresses').select(['address', 'user_id']).where('family', '=', n.config.family).execute();
  return new Map(rows.map((r) => [r.address, r.user_id]));
}

/** The range's logs to our addresses and the hash of its last block as the answering node sees it (null: it lacks the block). */
async function readRange(
  ctx: AppContext,
  n: NetworkRuntime,
  tuning: WatchTuning,
  from: bigint,
  to: bigint,
  watched: Map<string, bigint> | null,
): Promise<{ logs: OwnedLog[]; toHash: string | null }> {
  const { client, config } = n;
  if (watched) {
    const all = [...watched.keys()];
    const out: OwnedLog[] = [];
    let toHash: string | null | undefined;
    for (let i = 0; i < all.length; i += tuning.addressChunk) {
      const res = await client.transferLogs(from, to, config.token, all.slice(i, i + tuning.addressChunk));
      // Every chunk must come from a node that has the whole range, the same one.
      if (res.toHash === null || (toHash !== undefined && toHash !== res.toHash)) return { logs: [], toHash: null };
      toHash = res.toHash;
      for (const l of res.logs) out.push({ ...l, userId: watched.get(l.to)! });
    }
    return { logs: out, toHash: toHash ?? (await client.blockHashes([to])).get(to) ?? null };
  }
  const res = await client.transferLogs(from, to, config.token, null);
  if (!res.logs.length || res.toHash === null) return { logs: [], toHash: res.toHash };
  const recipients = [...new Set(res.logs.map((l) => l.to))];
  const owners = new Map<string, bigint>();
  for (let i = 0; i < recipients.length; i += 1000) {
    const rows = await ctx.db
      .selectFrom('custody_addresses')
      .select(['address', 'user_id'])
      .where('family', '=', config.family)
      .where('address', 'in', recipients.slice(i, i + 1000))
      .execute();
    for (const r of rows) owners.set(r.address, r.user_id);
  }
  return { logs: res.logs.filter((l) => owners.has(l.to)).map((l) => ({ ...l, userId: owners.get(l.to)! })), toHash: res.toHash };
}

/**
 * Reads [scanned_to + 1, up to `head`] in ranges, each stored whole with its block hashes, or not
 * at all. A refused range is halved (down to one block) and asked again; other failures back off
 * and retry, then end the tick with the cursor where the last whole range left it. A log whose
 * block hash is not the node's hash at that height (the chain moved during the read) drops the
 * range: it is read again.
 */
async function scan(
  ctx: AppContext,
  n: NetworkRuntime,
  tuning: WatchTuning,
  scannedTo: bigint,
  head: bigint,
): Promise<{ observed: number; scannedTo: bigint; behind: boolean }> {
  const net = n.config;
  const watched = await watchedAddresses(ctx, n, tuning);
  let cursor = scannedTo;
  let observed = 0;
  const limit = head < scannedTo + BigInt(tuning.maxBlocksPerTick) ? head : scannedTo + BigInt(tuning.maxBlocksPerTick);
  let unsettled = 0;
  while (cursor < limit) {
    const from = cursor + 1n;
    const to = from + BigInt(n.range) - 1n < limit ? from + BigInt(n.range) - 1n : limit;
    let read: Awaited<ReturnType<typeof readRange>>;
    try {
      read = await withRetry(tuning, `logs ${from}-${to}`, () => readRange(ctx, n, tuning, from, to, watched), true);
    } catch (err) {
      if (err instanceof RpcError && err.kind === 'range' && n.range > 1) {
        n.range = Math.max(1, Math.floor(n.range / 2));
        continue;
      }
      throw err;
    }
    // The node that answered lacks the end of the range: its logs are not the whole range.
    if (read.toHash === null) return { observed, scannedTo: cursor, behind: true };
    const logs = read.logs;
    const hashes = await withRetry(tuning, 'block hashes', () => n.client.blockHashes([...new Set(logs.map((l) => l.blockNumber))]));
    hashes.set(to, read.toHash);
    if (logs.some((l) => hashes.get(l.blockNumber) !== l.blockHash)) {
      if (++unsettled >= tuning.attempts) throw new RpcError('server', `${net.network}: logs of ${from}-${to} keep disagreeing with the node's blocks`);
      await pause(tuning, backoffMs(unsettled, 'server'));
      continue;
    }
    const kept = new Map([...hashes].filter(([h]) => h === to || logs.some((l) => l.blockNumber === h)));
    observed += await ctx.db.transaction().execute((tx) => storeRange(tx, net, { from, to, hashes: kept, head }, logs, ctx.log));
    cursor = to;
    n.range = Math.min(ctx.config.payments.custody.logRange, n.range * 2);
  }
  return { observed, scannedTo: cursor, behind: false };
}

/**
 * One tick of a network's watcher (custody.md section 3), run under the scheduler's lock: read
 * the head; check the recent blocks against the node (a fork above the credited line rewinds and
 * orphans, one at or under it halts the network); read the next ranges; move the credited line to
 * what is final (depth, unchanged hashes, and the node's finalized block where configured); credit
 * every observation under it, each once.
 */
export async function watchOnce(ctx: AppContext, network: TCustodyNetwork): Promise<TickResult> {
  try {
    return await tick(ctx, network);
  } catch (err) {
    // What health and the admin view give as the reason once the node has been silent too long.
    if (err instanceof RpcError) await noteFailure(ctx, network, err);
    throw err;
  }
}

async function tick(ctx: AppContext, network: TCustodyNetwork): Promise<TickResult> {
  const rt = custodyRuntime(ctx);
  const n = rt.networks.get(network);
  if (!n) throw new Error(`${network} is not configured`);
  const { client, config: net } = n;
  const tuning = rt.tuning;

  const head = await withRetry(
    tuning,
    'head',
    () => client.head(),
    false,
    (err) => noteFailure(ctx, network, err),
  );
  await noteAnswer(ctx, network, head);
  let cursor = await loadCursor(ctx, n, head, tuning);
  await ctx.db.updateTable('chain_cursors').set({ head, head_at: new Date() }).where('network', '=', network).execute();
  const result: TickResult = {
    network,
    head,
    scannedTo: cursor.scanned_to,
    finalHeight: cursor.final_height,
    observed: 0,
    credited: 0,
    orphaned: 0,
    disputed: 0,
    unconfirmed: 0,
    halted: cursor.halted,
  };
  if (cursor.halted) return { ...result, stopped: 'halted' };
  // A node behind what we read already (a lagging replica behind a load balancer) cannot tell us anything new.
  if (head < cursor.scanned_to) return { ...result, stopped: 'node_behind' };

  const fork = await forkCheck(ctx, network, client, tuning, cursor.final_height);
  if (fork.kind === 'behind') return { ...result, stopped: 'node_behind' };
  if (fork.kind === 'fork') {
    if (fork.lowest <= cursor.final_height) {
      await halt(ctx, network, `block ${fork.lowest} changed at or under the credited line ${cursor.final_height}`);
      return { ...result, halted: true, stopped: 'halted' };
    }
    result.orphaned += await rewind(ctx, network, fork.lastMatch, fork.canonical);
    cursor = await ctx.db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirstOrThrow();
  }

  let scanned: Awaited<ReturnType<typeof scan>>;
  try {
    scanned = await scan(ctx, n, tuning, cursor.scanned_to, head);
  } catch (err) {
    if (err instanceof CursorMoved) return { ...result, stopped: 'node_behind' };
    throw err;
  }
  result.observed = scanned.observed;
  result.scannedTo = scanned.scannedTo;

  // The credited line: deep enough, read whole, and (where configured) under the node's finalized block.
  let target = head - BigInt(net.confirmations) + 1n;
  if (target > scanned.scannedTo) target = scanned.scannedTo;
  if (net.finality === 'finalized' || net.family === 'tron') {
    const finalized = await withRetry(tuning, 'finalized block', () => client.finalizedHeight());
    await ctx.db.updateTable('chain_cursors').set({ finalized_tag: finalized }).where('network', '=', network).execute();
    if (finalized === null) return { ...result, stopped: 'no_finalized' };
    if (finalized < target) target = finalized;
  }
  if (target > cursor.final_height) {
    // Every block with an observation on the way, and the new line itself, must still be the node's.
    const pending = await ctx.db
      .selectFrom('chain_observations')
      .select(['block_number', 'block_hash'])
      .distinct()
      .where('network', '=', network)
      .where('status', '=', 'seen')
      .where('block_number', '>', cursor.final_height)
      .where('block_number', '<=', target)
      .execute();
    const canonical = await withRetry(tuning, 'block hashes', () => client.blockHashes([target, ...pending.map((p) => p.block_number)]));
    const lineHash = canonical.get(target);
    const moved = pending.filter((p) => canonical.get(p.block_number) !== p.block_hash);
    if (!lineHash) return { ...result, stopped: 'node_behind' };
    if (moved.length) {
      const lowest = moved.reduce((m, p) => (p.block_number < m ? p.block_number : m), moved[0]!.block_number);
      result.orphaned += await rewind(ctx, network, lowest - 1n, canonical);
      return { ...result, scannedTo: lowest - 1n < result.scannedTo ? lowest - 1n : result.scannedTo, stopped: 'reorg' };
    }
    await ctx.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('chain_blocks')
        .values({ network, number: target, hash: lineHash })
        .onConflict((oc) => oc.columns(['network', 'number']).doUpdateSet({ hash: lineHash }))
        .execute();
      await tx
        .updateTable('chain_cursors')
        .set({ final_height: target, updated_at: new Date() })
        .where('network', '=', network)
        .where('halted', '=', false)
        .where('final_height', '<', target)
        .execute();
      // Old hashes are not needed below the margin.
      await tx
        .deleteFrom('chain_blocks')
        .where('network', '=', network)
        .where('number', '<=', target - MARGIN - 64n)
        .execute();
    });
    result.finalHeight = target;
  }

  // Credit what is final, oldest first: at most creditsPerTick (CHAIN_CREDITS_PER_TICK) a tick, in
  // batches of CREDIT_BATCH, each batch in one transaction (creditBatch; a batch that fails is
  // retried one observation per transaction). A kill leaves each observation credited or still
  // `seen`, so the next tick finds the rest, and the ledger key makes a second post a no-op.
  const final: Claim[] = await ctx.db
    .selectFrom('chain_observations')
    .select(['id', 'block_number', 'block_hash', 'tx_hash', 'log_index', 'token', 'from_address', 'to_address', 'raw_amount'])
    .where('network', '=', network)
    .where('status', '=', 'seen')
    .where('block_number', '<=', result.finalHeight)
    .orderBy('block_number')
    .orderBy('log_index')
    .limit(tuning.creditsPerTick)
    .execute();
  // Trust no single node: each must be confirmed by the quorum of endpoints, receipt and all (quorum.ts).
  const verdicts = await corroborate(n, tuning, final);
  const disputed = final.flatMap((o) => {
    const v = verdicts.get(o.id);
    return v?.kind === 'disagree' ? [{ id: o.id, why: v.why }] : [];
  });
  result.disputed = await holdDisputed(ctx, network, disputed);
  const waiting = final.flatMap((o) => {
    const v = verdicts.get(o.id);
    return v?.kind === 'wait' ? [v.why] : [];
  });
  result.unconfirmed = waiting.length;
  if (waiting.length)
    ctx.log.warn({ network, transfers: waiting.length, reason: waiting[0] }, 'custody transfers not credited yet: too few endpoints confirmed them');
  await noteQuorum(ctx, network, waiting.length ? `${waiting.length} final transfer(s) wait: ${waiting[0]}` : null);
  const due = final.filter((o) => verdicts.get(o.id)?.kind === 'confirmed');
  for (let i = 0; i < due.length; i += CREDIT_BATCH) {
    const outcomes = await creditBatch(
      ctx,
      net,
      due.slice(i, i + CREDIT_BATCH).map((o) => o.id),
      head,
    );
    result.credited += outcomes.filter((o) => o === 'credited').length;
  }
  await refreshConfirmations(ctx, network, head);
  return result;
}

/**
 * The live count on confirming payments (head − block + 1 of their latest transfer), and the end
 * of a confirming payment whose transfers all left the chain once its window is over.
 */
async function refreshConfirmations(ctx: AppContext, network: TCustodyNetwork, head: bigint): Promise<void> {
  await sql`
    update payments p set confirmations = greatest(0, ${head}::bigint - o.top + 1)::int, updated_at = now()
    from (select payment_id, max(block_number) as top from chain_observations
          where network = ${network} and status = 'seen' and payment_id is not null group by payment_id) o
    where p.id = o.payment_id and p.status = 'confirming'
      and p.confirmations <> greatest(0, ${head}::bigint - o.top + 1)::int`.execute(ctx.db);
  // Through the one status writer (payments/status-writer.ts), the rows locked as they are read.
  await ctx.db.transaction().execute(async (tx) => {
    const gone = await sql<{ id: bigint }>`
      select p.id from payments p
      where p.provider = 'chain' and p.status = 'confirming' and p.window_end < now() and p.credited_amount = 0
        and p.extra->>'network' = ${network}
        and not exists (select 1 from chain_observations o where o.payment_id = p.id and o.status <> 'orphaned')
      order by p.id
      for update of p`.execute(tx);
    await movePayments(
      tx,
      gone.rows.map((p) => ({ id: p.id, status: 'expired' as const, by: 'reorg' as const, from: ['confirming'] as const, confirmations: 0 })),
    );
  });
}
