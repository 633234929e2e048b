import type { Executor } from '../../db/types';

export interface TeamSummary {
  total_directs: number;
  /** directs' total staked, micro-units */
  total_direct_business: bigint;
  /** all descendants, any depth */
  total_network: number;
  team_business: { users: number; amount: bigint };
}

/**
 * Team figures for the wallet. Placeholder until the team module keeps real counters
 * (issue: team, transfers, withdrawals).
 */
export async function getTeamSummary(_db: Executor, _userId: bigint): Promise<TeamSummary> {
  return { total_directs: 0, total_direct_business: 0n, total_network: 0, team_business: { users: 0, amount: 0n } };
}

/**
 * Keeps team counters current when a user joins under a sponsor. Runs in the sign-up transaction.
 * Placeholder until the team counters land.
 */
export async function onUserCreated(_tx: Executor, _userId: bigint, _referrerId: bigint | null): Promise<void> {}

/** Keeps team business current when a user stakes. Runs in the stake's transaction. Placeholder until the team counters land. */
export async function onStake(_tx: Executor, _userId: bigint, _amount: bigint): Promise<void> {}
