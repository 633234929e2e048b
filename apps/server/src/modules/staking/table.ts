import type { StakeStatus } from '@app/core';
import type { Generated } from 'kysely';
import type { Id, Micro, MicroDefault, Timestamp } from '../../db/types';

export interface StakesTable {
  id: Id;
  user_id: bigint;
  amount: Micro;
  daily_rate: string;
  cap_percentage: string;
  roi_paid: MicroDefault;
  status: Generated<StakeStatus>;
  start_date: string;
  last_roi_date: string | null;
  created_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    stakes: StakesTable;
  }
}
