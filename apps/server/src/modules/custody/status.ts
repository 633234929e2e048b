import { sql } from 'kysely';
import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import { microOf } from './amounts';
import { ACCOUNT_PATH, displayAddress } from './derive';
import './balances';
import { nodeHealth } from './node-state';
import { DISAGREE_PREFIX } from './quorum';
import { custodyRuntime } from './runtime';
import './table';

/**
 * ok; stale: the node has not answered for CHAIN_STALE_AFTER_S, or too few endpoints have confirmed
 * the final transfers for that long; halted: a reorg under the credited line; disputed: the
 * endpoints disagreed on a transfer, held until an admin dismisses it; unknown: never asked yet
 */
/** What /api/health and /metrics report per network (one list: the metric's series come from it). */
export const NETWORK_STATES = ['ok', 'stale', 'halted', 'disputed', 'unknown'] as const;
export type NetworkState = (typeof NETWORK_STATES)[number];

export interface NetworkStatus {
  network: TCustodyNetwork;
  state: NetworkState;
  /** why it is not ok (stale or halted) */
  reason: string | null;
  /** the node's head as last seen */
  head: bigint | null;
  /** how long ago that head was first seen, in seconds (a head that stops moving grows old) */
  headAgeS: number | null;
  /** the node's last answer */
  answeredAt: Date | null;
  scannedTo: bigint | null;
  finalHeight: bigint | null;
  finalizedTag: bigint | null;
  /** the last-seen head − what the watcher has read: read it with headAgeS (a frozen head shows no lag) */
  lag: bigint | null;
  headAt: Date | null;
  halted: boolean;
  haltedReason: string | null;
  haltedAt: Date | null;
  confirmations: number;
  counts: { seen: number; credited: number; belowMinimum: number; held: number; orphaned: number };
  /** micro-USDT credited to users from this network */
  creditedTotal: bigint;
}

/** Per configured network: the watcher's heights and whether it is halted, and its deposits by status (health, metrics, admin). */
export async function custodyStatus(ctx: AppContext, now = new Date()): Promise<NetworkStatus[]> {
  const networks = ctx.config.payments.custody.networks;
  if (!networks.length) return [];
  const cursors = await ctx.db.selectFrom('chain_cursors').selectAll().execute();
  const nodes = await ctx.db.selectFrom('chain_node_state').selectAll().execute();
  const counts = await sql<{ network: string; status: string; n: bigint | string; total: bigint | string | null }>`
    select network, status, count(*) as n, sum(amount) as total from chain_observations group by network, status`.execute(ctx.db);
  // Transfers held because the endpoints disagree, per network: how many, and the latest reason.
  const disputes = await sql<{ network: string; note: string; n: bigint | string }>`
    select distinct on (network) network, note, count(*) over (partition by network) as n from chain_observations
    where status = 'held' and note like ${`${DISAGREE_PREFIX}%`} order by network, id desc`.execute(ctx.db);
  return networks.map((net) => {
    const c = cursors.find((r) => r.network === net.network);
    const of = (status: string) => counts.rows.find((r) => r.network === net.network && r.status === status);
    const n = (status: string) => Number(of(status)?.n ?? 0);
    const node = nodes.find((r) => r.network === net.network);
    const answers = nodeHealth(node, ctx.config.payments.custody.staleAfterS, now);
    const head = node?.head ?? c?.head ?? null;
    const headSeenAt = node?.head_seen_at ?? c?.head_at ?? null;
    const halted = c?.halted ?? false;
    const shortS = node?.quorum_short_since ? Math.max(0, Math.floor((now.getTime() - node.quorum_short_since.getTime()) / 1000)) : null;
    const short = shortS !== null && shortS > ctx.config.payments.custody.staleAfterS;
    const dispute = disputes.rows.find((r) => r.network === net.network);
    const state: NetworkState = halted ? 'halted' : answers.state === 'stale' ? 'stale' : short ? 'stale' : dispute ? 'disputed' : answers.state;
    const reason =
      state === 'halted'
        ? (c?.halted_reason ?? 'halted')
        : answers.state === 'stale'
          ? answers.reason
          : state === 'stale'
            ? `the endpoints' quorum (${net.quorum} of ${net.urls.length}) has not confirmed the final transfers for ${shortS} s: ${node?.quorum_error ?? ''}`
            : state === 'disputed'
              ? `${Number(dispute!.n)} transfer(s) held because the endpoints disagree (dismiss them on the Custody page once checked); latest: ${dispute!.note}`
              : answers.reason;
    return {
      network: net.network,
      state,
      reason,
      head,
      headAgeS: headSeenAt ? Math.max(0, Math.floor((now.getTime() - headSeenAt.getTime()) / 1000)) : null,
      answeredAt: node?.answered_at ?? null,
      scannedTo: c ? c.scanned_to : null,
      finalHeight: c ? c.final_height : null,
      finalizedTag: c?.finalized_tag ?? null,
      lag: c && head !== null ? (head > c.scanned_to ? head - c.scanned_to : 0n) : null,
      headAt: c?.head_at ?? null,
      halted,
      haltedReason: c?.halted_reason ?? null,
      haltedAt: c?.halted_at ?? null,
      confirmations: net.confirmations,
      counts: { seen: n('seen'), credited: n('credited'), belowMinimum: n('below_minimum'), held: n('held'), orphaned: n('orphaned') },
      creditedTotal: BigInt(of('credited')?.total ?? 0),
    };
  });
}

export interface Reconciliation {
  network: TCustodyNetwork;
  /** the height the stored balances were read at (the credited line then; Tron: its latest block) */
  atBlock: bigint | null;
  /** when the stored balances were read (null: not yet) */
  readAt: Date | null;
  /** sum of the stored balances over our addresses, raw and micro */
  onChainRaw: bigint;
  onChain: bigint;
  /**
   * what the observations say should be there at that height: credited, under the minimum, held, about
   * to be credited; not a transfer held because the endpoints disagreed (most likely never on the chain)
   */
  expectedRaw: bigint;
  /** micro-USDT the ledger credited from this network */
  ledgerCredited: bigint;
  /** onChain − expected, in micro-USDT (negative: less on chain than recorded, e.g. swept by hand) */
  difference: bigint;
  flagged: boolean;
  /** addresses read, and how many hold the token */
  addresses: number;
  holding: number;
  /** one page of the addresses holding the token, for the operator to sweep with their own wallet (the index: the key's path, docs/custody.md) */
  balances: { address: string; userId: bigint; index: number; path: string; balance: bigint; readAt: Date }[];
  /** the last balances run failed after the stored read */
  error?: string;
}

/**
 * The chain against the ledger (custody.md section 4), from what the balances job stored
 * (balances.ts): the sum of the token balances on every address we handed out, read at the
 * credited line, beside what the observations under that line account for and what the ledger
 * credited. Any difference is flagged: a transfer the watcher missed, or funds moved off the
 * addresses (a manual sweep shows here until it is explained). No node is asked here: a request
 * answers from the database whatever the node does. `page` pages the addresses holding the token.
 */
export async function reconcile(ctx: AppContext, page: { page: number; perPage: number } = { page: 1, perPage: 50 }): Promise<Reconciliation[]> {
  const rt = custodyRuntime(ctx);
  const out: Reconciliation[] = [];
  for (const [network, n] of rt.networks) {
    const run = await ctx.db.selectFrom('custody_balance_runs').selectAll().where('network', '=', network).executeTakeFirst();
    const atBlock = run?.read_at ? run.at_block : null;
    const sums = await sql<{ expected: string | null; credited: string | null }>`
      select sum(raw_amount) filter (where status <> 'orphaned' and not (status in ('held', 'dismissed') and note like ${`%${DISAGREE_PREFIX}%`})) as expected,
        sum(amount) filter (where status = 'credited') as credited
      from chain_observations where network = ${network} and block_number <= ${atBlock ?? -1n}`.execute(ctx.db);
    // What the signer swept off the deposit addresses (recorded once final on chain, payouts/sweeps.ts)
    // left them on purpose: not a difference.
    const swept = await sql<{ raw: string | null }>`
      select sum(amount_raw) as raw from custody_sweeps where network = ${network} and block_number <= ${atBlock ?? -1n}`.execute(ctx.db);
    const expectedRaw = BigInt(sums.rows[0]?.expected ?? 0) - BigInt(swept.rows[0]?.raw ?? 0);
    const ledgerCredited = BigInt(sums.rows[0]?.credited ?? 0);
    const stored = await sql<{ total: string | null; holding: string | number }>`
      select sum(balance) as total, count(*) filter (where balance > 0) as holding from custody_balances where network = ${network}`.execute(ctx.db);
    const onChainRaw = BigInt(stored.rows[0]?.total ?? 0);
    const rows = await ctx.db
      .selectFrom('custody_balances as b')
      .innerJoin('custody_addresses as a', (j) => j.onRef('a.address', '=', 'b.address').on('a.family', '=', n.config.family))
      .select(['a.address', 'a.user_id', 'a.idx', 'b.balance', 'b.read_at'])
      .where('b.network', '=', network)
      .where(sql<boolean>`b.balance > 0`)
      .orderBy('a.idx')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute();
    const balances = rows.map((r) => ({
      address: displayAddress(n.config.family, r.address),
      userId: r.user_id,
      index: r.idx,
      path: `${ACCOUNT_PATH[n.config.family]}/0/${r.idx}`,
      balance: microOf(BigInt(r.balance), n.config.decimals),
      readAt: r.read_at,
    }));
    const error = run?.error ?? undefined;
    const onChain = microOf(onChainRaw, n.config.decimals);
    const difference = onChain - microOf(expectedRaw, n.config.decimals);
    out.push({
      network,
      atBlock,
      readAt: run?.read_at ?? null,
      onChainRaw,
      onChain,
      expectedRaw,
      ledgerCredited,
      difference,
      flagged: !!error || onChainRaw !== expectedRaw,
      addresses: run?.addresses ?? 0,
      holding: Number(stored.rows[0]?.holding ?? 0),
      balances,
      ...(error ? { error } : {}),
    });
  }
  return out;
}

/**
 * An admin resumes a halted network: the node's chain is taken as it is now. The stored hashes
 * from the lowest block that changed are dropped and the cursor and credited line go back under
 * it, so the watcher reads those blocks again; what it credited there stays credited (no balance
 * changes), and a transaction it credited that comes back in another block is not credited again
 * (credit.ts). Observations not yet final up there are orphaned when their block is gone.
 */
export async function resumeNetwork(ctx: AppContext, network: TCustodyNetwork): Promise<{ resumedFrom: bigint | null }> {
  const n = custodyRuntime(ctx).networks.get(network);
  if (!n) return { resumedFrom: null };
  const cursor = await ctx.db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
  if (!cursor?.halted) return { resumedFrom: null };
  const stored = await ctx.db.selectFrom('chain_blocks').select(['number', 'hash']).where('network', '=', network).orderBy('number').execute();
  const canonical = await n.client.blockHashes(stored.map((b) => b.number));
  const changed = stored.find((b) => canonical.get(b.number) !== b.hash);
  const from = changed ? changed.number - 1n : cursor.scanned_to;
  await ctx.db.transaction().execute(async (tx) => {
    const gone = await tx
      .selectFrom('chain_observations')
      .select(['id', 'block_number', 'block_hash'])
      .where('network', '=', network)
      .where('status', '=', 'seen')
      .where('block_number', '>', from)
      .execute();
    const ids = gone.filter((o) => canonical.get(o.block_number) !== o.block_hash).map((o) => o.id);
    if (ids.length)
      await tx
        .updateTable('chain_observations')
        .set({ status: 'orphaned', orphaned_at: new Date(), note: 'block left the chain (resumed after a halt)' })
        .where('id', 'in', ids)
        .execute();
    await tx.deleteFrom('chain_blocks').where('network', '=', network).where('number', '>', from).execute();
    await tx
      .updateTable('chain_cursors')
      .set({
        halted: false,
        halted_reason: null,
        halted_at: null,
        scanned_to: from < cursor.scanned_to ? from : cursor.scanned_to,
        final_height: from < cursor.final_height ? from : cursor.final_height,
        updated_at: new Date(),
      })
      .where('network', '=', network)
      .execute();
  });
  return { resumedFrom: from };
}
