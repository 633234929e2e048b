import { microToNumber, toMicro } from '@app/core';
import type { TRewardLevel, TSettings } from '@app/core/contracts';
import type { Executor } from '../../db/types';
import './table';

/** Percentages as exact decimal text ("0.5"); turned into JSON numbers only at the edge. */
export interface Settings {
  roi_income_percentage: string;
  stake_cap_percentage: string;
  direct_referral_percentage: string;
  withdrawal_fee_percentage: string;
  maintenance_mode: boolean;
}

/** NUMERIC text without trailing zeros ("0.500000" → "0.5"). */
export function normalizePercent(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

export async function getSettings(db: Executor): Promise<Settings> {
  const row = await db
    .selectFrom('settings')
    .select(['roi_income_percentage', 'stake_cap_percentage', 'direct_referral_percentage', 'withdrawal_fee_percentage', 'maintenance_mode'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return {
    roi_income_percentage: normalizePercent(String(row.roi_income_percentage)),
    stake_cap_percentage: normalizePercent(String(row.stake_cap_percentage)),
    direct_referral_percentage: normalizePercent(String(row.direct_referral_percentage)),
    withdrawal_fee_percentage: normalizePercent(String(row.withdrawal_fee_percentage)),
    maintenance_mode: row.maintenance_mode,
  };
}

export function settingsToJson(s: Settings): TSettings & { maintenance_mode: boolean } {
  return {
    roi_income_percentage: Number(s.roi_income_percentage),
    stake_cap_percentage: Number(s.stake_cap_percentage),
    direct_referral_percentage: Number(s.direct_referral_percentage),
    withdrawal_fee_percentage: Number(s.withdrawal_fee_percentage),
    maintenance_mode: s.maintenance_mode,
  };
}

export async function updateSettings(db: Executor, patch: Partial<Settings>): Promise<Settings> {
  await db
    .updateTable('settings')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', 1)
    .execute();
  return getSettings(db);
}

export interface RewardLevel {
  level: number;
  self_investment: bigint;
  direct_investment: bigint;
  reward: bigint;
}

export async function getRewardLevels(db: Executor): Promise<RewardLevel[]> {
  const rows = await db.selectFrom('reward_levels').selectAll().orderBy('level').execute();
  return rows.map((r) => ({
    level: r.level,
    self_investment: BigInt(r.self_investment),
    direct_investment: BigInt(r.direct_investment),
    reward: BigInt(r.reward),
  }));
}

export function rewardLevelToJson(l: RewardLevel): TRewardLevel {
  return {
    level: l.level,
    self_investment: microToNumber(l.self_investment),
    direct_investment: microToNumber(l.direct_investment),
    reward: microToNumber(l.reward),
  };
}

/** Replaces the reward levels (admin); amounts in USD. */
export async function replaceRewardLevels(
  db: Executor,
  levels: { level: number; self_investment: number; direct_investment: number; reward: number }[],
): Promise<RewardLevel[]> {
  await db.deleteFrom('reward_levels').execute();
  if (levels.length)
    await db
      .insertInto('reward_levels')
      .values(
        levels.map((l) => ({
          level: l.level,
          self_investment: toMicro(l.self_investment)!,
          direct_investment: toMicro(l.direct_investment)!,
          reward: toMicro(l.reward)!,
        })),
      )
      .execute();
  return getRewardLevels(db);
}
