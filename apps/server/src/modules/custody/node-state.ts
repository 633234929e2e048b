import { sql } from 'kysely';
import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import type { Timestamp } from '../../db/types';

export interface ChainNodeStateTable {
  network: TCustodyNetwork;
  /** the node's head as last seen */
  head: bigint | null;
  /** when that head was first seen: a head that stops moving grows old here while the node still answers */
  head_seen_at: Timestamp | null;
  /** the last successful answer of the node */
  answered_at: Timestamp | null;
  /** the first failure since the last answer (null while it answers) */
  failing_since: Timestamp | null;
  /** the last failure, kept after the node answers again */
  error: string | null;
  error_at: Timestamp | null;
  /** since when too few endpoints confirm the transfers due (null: the quorum is reached), and the last reason (migration 0212) */
  quorum_short_since: Timestamp | null;
  quorum_error: string | null;
}

declare module '../../db/types' {
  interface Database {
    chain_node_state: ChainNodeStateTable;
  }
}

/** The node answered (with its head, when the call was the head's). */
export async function noteAnswer(ctx: AppContext, network: TCustodyNetwork, head?: bigint): Promise<void> {
  if (head === undefined) {
    await sql`
      insert into chain_node_state (network, answered_at) values (${network}, now())
      on conflict (network) do update set answered_at = now(), failing_since = null`.execute(ctx.db);
    return;
  }
  await sql`
    insert into chain_node_state (network, head, head_seen_at, answered_at) values (${network}, ${head}, now(), now())
    on conflict (network) do update set
      head_seen_at = case when chain_node_state.head is distinct from excluded.head then now() else chain_node_state.head_seen_at end,
      head = excluded.head, answered_at = now(), failing_since = null`.execute(ctx.db);
}

/** The node failed (after the call's retries, or on each failed try of the head). */
export async function noteFailure(ctx: AppContext, network: TCustodyNetwork, err: unknown): Promise<void> {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await sql`
    insert into chain_node_state (network, failing_since, error, error_at) values (${network}, now(), ${message}, now())
    on conflict (network) do update set
      failing_since = coalesce(chain_node_state.failing_since, now()), error = excluded.error, error_at = now()`.execute(ctx.db);
}

/**
 * Whether the endpoints reached their quorum on the transfers due this tick: `null` clears the
 * shortfall, a reason starts it (or keeps its start) and stores the reason.
 */
export async function noteQuorum(ctx: AppContext, network: TCustodyNetwork, shortfall: string | null): Promise<void> {
  if (shortfall === null) {
    await sql`update chain_node_state set quorum_short_since = null, quorum_error = null where network = ${network} and quorum_short_since is not null`.execute(
      ctx.db,
    );
    return;
  }
  await sql`
    insert into chain_node_state (network, quorum_short_since, quorum_error) values (${network}, now(), ${shortfall.slice(0, 500)})
    on conflict (network) do update set
      quorum_short_since = coalesce(chain_node_state.quorum_short_since, now()), quorum_error = excluded.quorum_error`.execute(ctx.db);
}

export type NodeHealth = 'ok' | 'stale' | 'unknown';

/**
 * Whether a network's node answers (docs/custody.md, "What to watch"): stale once it has not
 * answered for longer than CHAIN_STALE_AFTER_S (counted from its last answer, or from its first
 * failure when it never answered); unknown before anyone asked it.
 */
export function nodeHealth(
  row: { answered_at: Date | null; failing_since: Date | null; error: string | null } | undefined,
  staleAfterS: number,
  now: Date,
): { state: NodeHealth; silentS: number | null; reason: string | null } {
  const since = row?.answered_at ?? row?.failing_since ?? null;
  if (!since) return { state: 'unknown', silentS: null, reason: null };
  const silentS = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000));
  if (silentS <= staleAfterS) return { state: 'ok', silentS, reason: null };
  const what = row?.answered_at ? `no answer from the node for ${silentS} s` : `the node has not answered since the watcher started ${silentS} s ago`;
  return { state: 'stale', silentS, reason: row?.error && row.failing_since ? `${what}: ${row.error}` : `${what} (is the watcher running?)` };
}
