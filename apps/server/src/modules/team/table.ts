import type { ColumnType } from 'kysely';
import type { MicroDefault } from '../../db/types';

type IntDefault = ColumnType<number, number | undefined, number>;

export interface TeamStatsTable {
  user_id: bigint;
  directs: IntDefault;
  direct_business: MicroDefault;
  network_users: IntDefault;
  network_active_users: IntDefault;
  network_business: MicroDefault;
}

/** The sponsor's own counters, updated in the writer's transaction. */
export interface TeamDirectTable {
  user_id: bigint;
  directs: IntDefault;
  direct_business: MicroDefault;
}

/** Network counters as of the last drain (read team_stats, which adds what is still pending). */
export interface TeamNetworkTable {
  user_id: bigint;
  network_users: IntDefault;
  network_active_users: IntDefault;
  network_business: MicroDefault;
}

/** Depth and binary-lifting jump pointers (jumps[k] is the ancestor 2^(k-1) levels up). */
export interface TeamTreeTable {
  user_id: bigint;
  depth: number;
  jumps: bigint[];
}

/** A delta for an anchor and every ancestor of it, waiting for the drainer. */
export interface TeamPendingTable {
  id: ColumnType<bigint, never, never>;
  anchor: bigint;
  users: IntDefault;
  active_users: IntDefault;
  business: MicroDefault;
  created_at: ColumnType<Date, Date | undefined, never>;
}

declare module '../../db/types' {
  interface Database {
    /** A view (read only): team_direct + team_network + the pending deltas in the user's downline. */
    team_stats: TeamStatsTable;
    team_direct: TeamDirectTable;
    team_network: TeamNetworkTable;
    team_tree: TeamTreeTable;
    team_pending: TeamPendingTable;
  }
}
