import { microToNumber } from '@app/core';
import type { TTeamMember } from '@app/core/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import './table';
import { paginate } from '../../lib/paginate';

export interface TeamSummary {
  total_directs: number;
  /** directs' total staked, micro-units */
  total_direct_business: bigint;
  /** all descendants, any depth */
  total_network: number;
  /** descendants who have staked, and their total staked (micro-units) */
  team_business: { users: number; amount: bigint };
}

/** The wallet's team figures: one row of counters, whatever the size or depth of the team. */
export async function getTeamSummary(db: Executor, userId: bigint): Promise<TeamSummary> {
  const row = await db.selectFrom('team_stats').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return {
    total_directs: row?.directs ?? 0,
    total_direct_business: BigInt(row?.direct_business ?? 0n),
    total_network: row?.network_users ?? 0,
    team_business: { users: row?.network_active_users ?? 0, amount: BigInt(row?.network_business ?? 0n) },
  };
}

/** Every ancestor of a user (sponsor, sponsor's sponsor, …), walked once in SQL. */
function ancestors(userId: bigint) {
  return sql`
    with recursive up(id, depth) as (
      select referrer_id, 1 from users where id = ${userId} and referrer_id is not null
      union all
      select u.referrer_id, up.depth + 1 from users u join up on u.id = up.id where u.referrer_id is not null and up.depth < 100000
    )
    select id from up`;
}

/**
 * A user joined under a sponsor: the sponsor gains a direct and every ancestor one member.
 * Runs in the sign-up transaction (one UPDATE over the ancestor chain).
 */
export async function onUserCreated(tx: Executor, userId: bigint, referrerId: bigint | null): Promise<void> {
  await tx
    .insertInto('team_stats')
    .values({ user_id: userId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  if (referrerId === null) return;
  await sql`update team_stats set directs = directs + 1 where user_id = ${referrerId}`.execute(tx);
  await sql`update team_stats set network_users = network_users + 1 where user_id in (${ancestors(userId)})`.execute(tx);
}

/** An unverified sign-up was deleted (it never staked): undo what onUserCreated counted. */
export async function onUserRemoved(tx: Executor, userId: bigint, referrerId: bigint | null): Promise<void> {
  if (referrerId !== null) {
    await sql`update team_stats set directs = directs - 1 where user_id = ${referrerId}`.execute(tx);
    await sql`update team_stats set network_users = network_users - 1 where user_id in (${ancestors(userId)})`.execute(tx);
  }
  await tx.deleteFrom('team_stats').where('user_id', '=', userId).execute();
}

/** A user staked: the sponsor's direct business and every ancestor's team business grow. Runs in the stake's transaction. */
export async function onStake(tx: Executor, userId: bigint, amount: bigint, firstStake = false): Promise<void> {
  const me = await tx.selectFrom('users').select('referrer_id').where('id', '=', userId).executeTakeFirst();
  if (!me?.referrer_id) return;
  await sql`update team_stats set direct_business = direct_business + ${amount} where user_id = ${me.referrer_id}`.execute(tx);
  await sql`update team_stats set network_business = network_business + ${amount},
      network_active_users = network_active_users + ${firstStake ? 1 : 0}
    where user_id in (${ancestors(userId)})`.execute(tx);
}

/** Rebuilds every counter from users and totals (repair tool; the counters normally stay current). */
export async function rebuildTeamStats(db: Executor): Promise<void> {
  await sql`insert into team_stats (user_id) select id from users on conflict do nothing`.execute(db);
  await sql`
    with recursive tree(ancestor, descendant) as (
      select referrer_id, id from users where referrer_id is not null
      union all
      select u.referrer_id, t.descendant from tree t join users u on u.id = t.ancestor where u.referrer_id is not null
    ),
    net as (
      select t.ancestor, count(*) as users, count(*) filter (where coalesce(ut.total_staked, 0) > 0) as active, coalesce(sum(ut.total_staked), 0) as business
      from tree t left join user_totals ut on ut.user_id = t.descendant group by t.ancestor
    ),
    dir as (
      select u.referrer_id as sponsor, count(*) as directs, coalesce(sum(ut.total_staked), 0) as business
      from users u left join user_totals ut on ut.user_id = u.id where u.referrer_id is not null group by u.referrer_id
    )
    update team_stats s set
      directs = coalesce(dir.directs, 0), direct_business = coalesce(dir.business, 0),
      network_users = coalesce(net.users, 0), network_active_users = coalesce(net.active, 0), network_business = coalesce(net.business, 0)
    from team_stats s2 left join net on net.ancestor = s2.user_id left join dir on dir.sponsor = s2.user_id
    where s.user_id = s2.user_id`.execute(db);
}

/** GET /api/user/my-team: the user's direct referrals, newest first. */
export async function listDirects(db: Executor, userId: bigint, page: number, perPage: number): Promise<{ rows: TTeamMember[]; total: number }> {
  const { rows, total } = await paginate(db.selectFrom('users').where('referrer_id', '=', userId), page, perPage, (q) =>
    q.select(['avatar', 'username', 'name', 'created_at', 'status']).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { total, rows: rows.map((r) => ({ avatar: r.avatar, username: r.username, name: r.name, createdAt: r.created_at.toISOString(), status: r.status })) };
}

export const teamBusinessToJson = (t: TeamSummary) => ({
  ...t,
  total_direct_business: microToNumber(t.total_direct_business),
  team_business: { users: t.team_business.users, amount: microToNumber(t.team_business.amount) },
});
