import { getUserDetail } from './modules/income/service';
import { getWithdrawalActivity } from './modules/history/service';
import { getRecentDeposits } from './modules/payments/history';
import { getStakingActivity } from './modules/staking/service';
import type { ActivitySource, UserDetailSource } from './modules/users/service';

/**
 * Where modules meet without importing each other's internals: the dashboard's figures and the
 * merged activity list come from the money modules.
 */
export const userDetailSource: UserDetailSource = getUserDetail;
export const activitySources: ActivitySource[] = [getStakingActivity, getRecentDeposits, getWithdrawalActivity];
