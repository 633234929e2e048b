import { sql } from 'kysely';
import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import { microOf } from './amounts';
import { ACCOUNT_PATH, displayAddress } from './derive';
import { custodyRuntime } from './runtime';
import './table';

export interface NetworkStatus {
  network: TCustodyNetwork;
  head: bigint | null;
  scannedTo: bigint | null;
  finalHeight: bigint | null;
  finalizedTag: bigint | null;
  /** blocks between the node's head and what the watcher has read */
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
export async function custodyStatus(ctx: AppContext): Promise<NetworkStatus[]> {
  const networks = ctx.config.payments.custody.networks;
  if (!networks.length) return [];
  const cursors = await ctx.db.selectFrom('chain_cursors').selectAll().execute();
  const counts = await sql<{ network: string; status: string; n: bigint | string; total: bigint | string | null }>`
    select network, status, count(*) as n, sum(amount) as total from chain_observations group by network, status`.execute(ctx.db);
  return networks.map((net) => {
    const c = cursors.find((r) => r.network === net.network);
    const of = (status: string) => counts.rows.find((r) => r.network === net.network && r.status === status);
    const n = (status: string) => Number(of(status)?.n ?? 0);
    return {
      network: net.network,
      head: c?.head ?? null,
      scannedTo: c ? c.scanned_to : null,
      finalHeight: c ? c.final_height : null,
      finalizedTag: c?.finalized_tag ?? null,
      lag: c && c.head !== null ? (c.head > c.scanned_to ? c.head - c.scanned_to : 0n) : null,
      headAt: c?.head_at ?? null,
      halted: c?.halted ?? false,
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
  /** the height the balances were read at (the credited line; Tron: its latest block) */
  atBlock: bigint | null;
  /** sum of balanceOf over our addresses, raw and micro */
  onChainRaw: bigint;
  onChain: bigint;
  /** what the observations say should be there at that height: credited, under the minimum, held, about to be credited */
  expectedRaw: bigint;
  /** micro-USDT the ledger credited from this network */
  ledgerCredited: bigint;
  /** onChain − expected, in micro-USDT (negative: less on chain than recorded, e.g. swept by hand) */
  difference: bigint;
  flagged: boolean;
  /** addresses holding the token, for the operator to sweep with their own wallet (the index: the key's path, docs/custody.md) */
  balances: { address: string; userId: bigint; index: number; path: string; balance: bigint }[];
  error?: string;
}

/**
 * The chain against the ledger (custody.md section 4): balanceOf over every address we handed
 * out, read from the node at the credited line, beside what the observations under that line
 * account for and what the ledger credited. Any difference is flagged: a transfer the watcher
 * missed, or funds moved off the addresses (a manual sweep shows here until it is explained).
 */
export async function reconcile(ctx: AppContext): Promise<Reconciliation[]> {
  const rt = custodyRuntime(ctx);
  const out: Reconciliation[] = [];
  for (const [network, n] of rt.networks) {
    const cursor = await ctx.db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
    const atBlock = cursor && cursor.final_height >= 0n ? cursor.final_height : null;
    const sums = await sql<{ expected: string | null; credited: string | null }>`
      select sum(raw_amount) filter (where status <> 'orphaned') as expected, sum(amount) filter (where status = 'credited') as credited
      from chain_observations where network = ${network} and block_number <= ${atBlock ?? -1n}`.execute(ctx.db);
    const expectedRaw = BigInt(sums.rows[0]?.expected ?? 0);
    const ledgerCredited = BigInt(sums.rows[0]?.credited ?? 0);
    const addresses = await ctx.db
      .selectFrom('custody_addresses')
      .select(['address', 'user_id', 'idx'])
      .where('family', '=', n.config.family)
      .orderBy('idx')
      .execute();
    const balances: Reconciliation['balances'] = [];
    let onChainRaw = 0n;
    let error: string | undefined;
    try {
      // 25 reads at a time: an admin page must not wait for thousands of round trips in a row.
      for (let i = 0; i < addresses.length && atBlock !== null; i += 25) {
        const chunk = addresses.slice(i, i + 25);
        const got = await Promise.all(chunk.map((a) => n.client.balanceOf(n.config.token, a.address, n.config.family === 'tron' ? null : atBlock)));
        got.forEach((b, j) => {
          if (b > 0n)
            balances.push({
              address: displayAddress(n.config.family, chunk[j]!.address),
              userId: chunk[j]!.user_id,
              index: chunk[j]!.idx,
              path: `${ACCOUNT_PATH[n.config.family]}/0/${chunk[j]!.idx}`,
              balance: microOf(b, n.config.decimals),
            });
          onChainRaw += b;
        });
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const onChain = microOf(onChainRaw, n.config.decimals);
    const difference = onChain - microOf(expectedRaw, n.config.decimals);
    out.push({
      network,
      atBlock,
      onChainRaw,
      onChain,
      expectedRaw,
      ledgerCredited,
      difference,
      flagged: !!error || onChainRaw !== expectedRaw,
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
