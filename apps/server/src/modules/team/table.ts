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

declare module '../../db/types' {
  interface Database {
    team_stats: TeamStatsTable;
  }
}
