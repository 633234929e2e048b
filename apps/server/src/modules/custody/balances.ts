import type { ColumnType } from 'kysely';
import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import type { Timestamp } from '../../db/types';
import { noteAnswer, noteFailure } from './node-state';
import { custodyRuntime } from './runtime';
import { withRetry } from './retry';
import './table';

export interface CustodyBalancesTable {
  network: TCustodyNetwork;
  /** 20 bytes, lowercase 0x hex, as in custody_addresses */
  address: string;
  /** the token's raw units (NUMERIC(78,0), read as text) */
  balance: ColumnType<string, string, string>;
  /** the height it was read at (null: the node's latest, Tron) */
  at_block: bigint | null;
  read_at: Timestamp;
}

export interface CustodyBalanceRunsTable {
  network: TCustodyNetwork;
  at_block: bigint | null;
  /** when the stored balances were read (null: never read whole) */
  read_at: Timestamp | null;
  addresses: ColumnType<number, number | undefined, number>;
  duration_ms: number | null;
  /** the last run's failure, if it failed after read_at's run */
  error: string | null;
  error_at: Timestamp | null;
}

declare module '../../db/types' {
  interface Database {
    custody_balances: CustodyBalancesTable;
    custody_balance_runs: CustodyBalanceRunsTable;
  }
}

/**
 * Addresses a round trip: one Multicall3 aggregate3 call (where it is deployed) or one JSON-RPC
 * batch of eth_calls, 20 for 10,000 addresses, each answer a few tens of kB.
 */
export const BALANCE_BATCH = 500;
/** rows per insert statement (5 parameters each, far under either engine's limit) */
const INSERT_CHUNK = 1_000;

export interface BalanceRun {
  network: TCustodyNetwork;
  addresses: number;
  atBlock: bigint | null;
  durationMs: number;
}

/**
 * The balances job of one network (custody.md sections 4 and 6), under the scheduler's lock like
 * the watcher: the token balance of every deposit address of the network's family, read by
 * Multicall3 or in JSON-RPC batches (client.ts) at the credited line (Tron: its latest block),
 * then stored whole in one transaction with the read time, so the admin view sums and pages stored
 * rows and never waits for a node. A run that fails stores nothing but its error: the previous
 * whole read stays, shown with its age.
 */
export async function readBalances(ctx: AppContext, network: TCustodyNetwork, opts: { batch?: number } = {}): Promise<BalanceRun> {
  const rt = custodyRuntime(ctx);
  const n = rt.networks.get(network);
  if (!n) throw new Error(`${network} is not configured`);
  const started = performance.now();
  const cursor = await ctx.db.selectFrom('chain_cursors').select('final_height').where('network', '=', network).executeTakeFirst();
  // The reconciliation compares the balances with the observations under this same line.
  const atBlock = cursor && cursor.final_height >= 0n ? cursor.final_height : null;
  if (atBlock === null) return { network, addresses: 0, atBlock, durationMs: 0 };
  const readAt = n.config.family === 'tron' ? null : atBlock;
  const addresses = (await ctx.db.selectFrom('custody_addresses').select('address').where('family', '=', n.config.family).orderBy('idx').execute()).map(
    (a) => a.address,
  );
  const batch = opts.batch ?? BALANCE_BATCH;
  const balances: bigint[] = [];
  try {
    for (let i = 0; i < addresses.length; i += batch) {
      const owners = addresses.slice(i, i + batch);
      const { client, config } = n;
      const got = await withRetry(rt.tuning, `balances ${i}-${i + owners.length - 1}`, () =>
        client.balancesOf ? client.balancesOf(config.token, owners, readAt) : Promise.all(owners.map((o) => client.balanceOf(config.token, o, readAt))),
      );
      if (got.length !== owners.length) throw new Error(`the node answered ${got.length} balances for ${owners.length} addresses`);
      balances.push(...got);
    }
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    await ctx.db
      .insertInto('custody_balance_runs')
      .values({ network, error: message, error_at: new Date() })
      .onConflict((oc) => oc.column('network').doUpdateSet({ error: message, error_at: new Date() }))
      .execute();
    await noteFailure(ctx, network, err);
    throw err;
  }
  await noteAnswer(ctx, network);
  const now = new Date();
  const durationMs = Math.round(performance.now() - started);
  await ctx.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('custody_balances').where('network', '=', network).execute();
    for (let i = 0; i < addresses.length; i += INSERT_CHUNK)
      await tx
        .insertInto('custody_balances')
        .values(
          addresses
            .slice(i, i + INSERT_CHUNK)
            .map((address, j) => ({ network, address, balance: balances[i + j]!.toString(), at_block: readAt, read_at: now })),
        )
        .execute();
    const run = { at_block: atBlock, read_at: now, addresses: addresses.length, duration_ms: durationMs, error: null, error_at: null };
    await tx
      .insertInto('custody_balance_runs')
      .values({ network, ...run })
      .onConflict((oc) => oc.column('network').doUpdateSet(run))
      .execute();
  });
  return { network, addresses: addresses.length, atBlock, durationMs };
}
