import { microToNumber } from '@app/core';
import type { TTeamMember } from '@app/core/contracts';
import { sql } from 'kysely';
import type { DB, Executor } from '../../db/types';
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

/**
 * A user joined under a sponsor: the sponsor gains a direct now; the sponsor and every ancestor
 * gain a member through one pending delta (folded later by drainTeam, counted by every read at
 * once). Runs in the sign-up transaction: two statements whatever the depth, one row locked
 * besides the user's own (the sponsor's team_direct row).
 */
export async function onUserCreated(tx: Executor, userId: bigint, referrerId: bigint | null): Promise<void> {
  // The user's own rows: counters, and its depth and jump pointers (from its sponsor's, about
  // log2(depth) primary-key reads), so every later delta anchored at it finds them in place.
  await sql`with d as (insert into team_direct (user_id) values (${userId}) on conflict do nothing),
      n as (insert into team_network (user_id) values (${userId}) on conflict do nothing)
    select team_tree_ensure(${userId})`.execute(tx);
  if (referrerId !== null) await sql`select team_push(${referrerId}, 1, 0, 1, 0, 0)`.execute(tx);
}

/** An unverified sign-up was deleted (it never staked, nobody joined under it): undo what onUserCreated counted. */
export async function onUserRemoved(tx: Executor, userId: bigint, referrerId: bigint | null): Promise<void> {
  if (referrerId !== null) await sql`select team_push(${referrerId}, -1, 0, -1, 0, 0)`.execute(tx);
  await sql`with a as (delete from team_direct where user_id = ${userId}), b as (delete from team_network where user_id = ${userId})
    delete from team_tree where user_id = ${userId}`.execute(tx);
}

/**
 * A user staked: the sponsor's direct business grows now; the sponsor's and every ancestor's team
 * business (and staking members on a first stake) through one pending delta. Runs in the stake's
 * transaction, after the stake locked the staker's and sponsor's users rows; it touches one
 * team_direct row (the sponsor's) and inserts one team_pending row, so it adds no lock-order edge.
 */
export async function onStake(tx: Executor, userId: bigint, amount: bigint, firstStake = false): Promise<void> {
  await sql`select team_push(u.referrer_id, 0, ${amount}::bigint, 0, ${firstStake ? 1 : 0}, ${amount}::bigint)
    from users u where u.id = ${userId} and u.referrer_id is not null`.execute(tx);
}

/**
 * Folds pending deltas into team_network, up to `limit` per transaction, until none is left (or
 * another drain holds the lock). Idempotent and safe to run from anywhere at any time: each delta
 * is deleted in the transaction that applies it. Returns how many distinct anchors were applied.
 */
export async function drainTeam(db: DB, limit = 500): Promise<number> {
  let applied = 0;
  for (;;) {
    const r = await db.transaction().execute((tx) => sql<{ n: number }>`select team_drain(${limit}) as n`.execute(tx));
    const n = Number(r.rows[0]?.n ?? 0);
    if (n <= 0) return applied;
    applied += n;
  }
}

let draining: Promise<void> | null = null;
let again = false;

/**
 * After a sign-up or stake committed: drain in the background (not awaited by the request). One
 * drain per process at a time; a kick during a drain runs one more pass after it. Errors are left
 * to the team:drain job, which drains whatever is left on its interval (crash safety).
 */
export function kickDrain(db: DB): void {
  if (draining) {
    again = true;
    return;
  }
  draining = (async () => {
    do {
      again = false;
      try {
        await drainTeam(db);
      } catch {
        // The job retries; reads are exact meanwhile (they add what is still pending).
        return;
      }
    } while (again);
  })().finally(() => {
    draining = null;
  });
}

/** Waits for the background drain of this process, if any (tests, shutdown). */
export async function drained(): Promise<void> {
  while (draining) await draining;
}

/** How many deltas wait to be folded (health and tests). */
export async function pendingDeltas(db: Executor): Promise<number> {
  const r = await sql<{ n: string }>`select count(*)::text as n from team_pending`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Rebuilds every counter from users and totals (repair tool; the counters normally stay current):
 * the jump pointers, then the direct and network counters, the pending deltas dropped in the same
 * statement (one snapshot: a stake committing meanwhile is either in the totals read or still
 * pending, never both). Holds the drain lock, so no drain interleaves.
 */
export async function rebuildTeamStats(db: Executor): Promise<void> {
  const run = async (tx: Executor) => {
    await sql`select pg_advisory_xact_lock(7402014)`.execute(tx);
    await sql`insert into team_direct (user_id) select id from users on conflict do nothing`.execute(tx);
    await sql`insert into team_network (user_id) select id from users on conflict do nothing`.execute(tx);
    await sql`select team_tree_rebuild()`.execute(tx);
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
    ),
    dropped as (delete from team_pending),
    directs as (
      update team_direct s set directs = coalesce(dir.directs, 0), direct_business = coalesce(dir.business, 0)
      from team_direct s2 left join dir on dir.sponsor = s2.user_id
      where s.user_id = s2.user_id
    )
    update team_network s set
      network_users = coalesce(net.users, 0), network_active_users = coalesce(net.active, 0), network_business = coalesce(net.business, 0)
    from team_network s2 left join net on net.ancestor = s2.user_id
    where s.user_id = s2.user_id`.execute(tx);
  };
  if (db.isTransaction) await run(db);
  else await (db as DB).transaction().execute(run);
}

/**
 * GET /api/user/my-team: the user's direct referrals, newest first. A member who has not verified
 * the e-mail yet shows without a username: whoever signed an address up under their own link must
 * not learn the account's username (it names the account for a transfer; docs/security.md).
 */
export async function listDirects(db: Executor, userId: bigint, page: number, perPage: number): Promise<{ rows: TTeamMember[]; total: number }> {
  const { rows, total } = await paginate(db.selectFrom('users').where('referrer_id', '=', userId), page, perPage, (q) =>
    q.select(['avatar', 'username', 'name', 'created_at', 'status', 'email_verified_at']).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({
      avatar: r.avatar,
      username: r.email_verified_at ? r.username : null,
      name: r.name,
      createdAt: r.created_at.toISOString(),
      status: r.status,
    })),
  };
}

export const teamBusinessToJson = (t: TeamSummary) => ({
  ...t,
  total_direct_business: microToNumber(t.total_direct_business),
  team_business: { users: t.team_business.users, amount: microToNumber(t.team_business.amount) },
});
