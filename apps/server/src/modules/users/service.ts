import type { TActivityItem, TProfile, TUserDetail, TUserInfo } from '@app/core/contracts';
import type { Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import './table';

/** A user's money figures as the dashboard shows them. */
export type UserDetailSource = (db: Executor, userId: bigint) => Promise<TUserDetail>;
/** Recent activity of one kind (staking, deposits, withdrawals). */
export type ActivitySource = (db: Executor, userId: bigint, limit: number) => Promise<TActivityItem[]>;

export function emptyUserDetail(): TUserDetail {
  return { deposit_balance: 0, total_staked: 0, total_income: 0, roi_income: 0, direct_referral_income: 0, reward_income: 0, balance: 0 };
}

const ACTIVITY_LIMIT = 10;

/** GET /api/user/get-info: the user, their figures and the latest activity of every kind, merged newest first. */
export async function getUserInfo(db: Executor, userId: bigint, detail: UserDetailSource, activity: ActivitySource[]): Promise<TUserInfo> {
  const user = await db.selectFrom('users').select(['name', 'username', 'status', 'eligible_level']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const [userDetail, ...lists] = await Promise.all([detail(db, userId), ...activity.map((a) => a(db, userId, ACTIVITY_LIMIT))]);
  const merged = lists
    .flat()
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .slice(0, ACTIVITY_LIMIT);
  return { name: user.name, username: user.username, status: user.status, eligible_level: user.eligible_level, user_detail: userDetail, activity: merged };
}

export async function getProfile(db: Executor, userId: bigint): Promise<TProfile> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('users as s', 's.id', 'u.referrer_id')
    .select(['u.avatar', 'u.name', 'u.username', 'u.email', 'u.status', 'u.active_date', 's.username as sponsor'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  return {
    avatar: row.avatar,
    name: row.name,
    username: row.username,
    email: row.email,
    referral_id: row.sponsor,
    status: row.status,
    active_date: row.active_date ? String(row.active_date).slice(0, 10) : null,
  };
}

/** The transfer screen's username check: another user, not blocked. */
export async function checkUsername(db: Executor, currentUserId: bigint, username: string): Promise<{ userName: string; username: string }> {
  const row = await db.selectFrom('users').select(['id', 'name', 'username', 'status']).where('username', '=', username.toUpperCase()).executeTakeFirst();
  if (!row || row.status === 'blocked') throw new AppError('NOT_FOUND', 'User not found');
  if (row.id === currentUserId) throw new AppError('BAD_REQUEST', 'You cannot transfer to yourself');
  return { userName: row.name, username: row.username };
}
