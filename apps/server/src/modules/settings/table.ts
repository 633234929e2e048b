import type { Generated } from 'kysely';
import type { Micro, Timestamp } from '../../db/types';

export interface SettingsTable {
  id: Generated<number>;
  roi_income_percentage: string;
  stake_cap_percentage: string;
  direct_referral_percentage: string;
  withdrawal_fee_percentage: string;
  maintenance_mode: boolean;
  updated_at: Timestamp;
}
export interface RewardLevelsTable {
  level: number;
  self_investment: Micro;
  direct_investment: Micro;
  reward: Micro;
}

declare module '../../db/types' {
  interface Database {
    settings: SettingsTable;
    reward_levels: RewardLevelsTable;
  }
}
