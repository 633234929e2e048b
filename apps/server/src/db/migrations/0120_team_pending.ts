import { sql, type Kysely } from 'kysely';

/**
 * Deep downlines (issue 14, docs/decisions/2026-11-23-deep-team-counters.md): a sign-up or a stake
 * no longer updates every ancestor's row in its own transaction. It writes one delta row
 * (`team_pending`, anchored at the sponsor: it counts for the sponsor and every ancestor), and a
 * drainer (`team_drain`, after commit and as a job) folds deltas into `team_network` in batches.
 * Reads stay exact: the `team_stats` view adds the still-pending deltas whose anchor is the reader
 * or in the reader's downline, checked in O(log depth) with binary-lifting jump pointers
 * (`team_tree`). With nothing pending the view is two primary-key reads and an empty scan.
 *
 * The direct counters (directs, direct_business) stay synchronous, in their own table
 * (`team_direct`, one row per write), so a drain of 10,000 ancestor rows never holds a row a
 * sign-up or stake needs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table team_network (
      user_id bigint primary key references users(id),
      network_users integer not null default 0,
      network_active_users integer not null default 0,
      network_business bigint not null default 0
    )`.execute(db);
  await sql`insert into team_network select user_id, network_users, network_active_users, network_business from team_stats`.execute(db);
  await sql`alter table team_stats drop column network_users, drop column network_active_users, drop column network_business`.execute(db);
  await sql`alter table team_stats rename to team_direct`.execute(db);

  // depth: 0 for a user without a sponsor. jumps[k] is the ancestor 2^(k-1) levels up (jumps[1] is
  // the sponsor); a user at depth d has floor(log2 d) + 1 of them. Written once, when the user joins.
  await sql`
    create table team_tree (
      user_id bigint primary key references users(id),
      depth integer not null,
      jumps bigint[] not null
    )`.execute(db);

  // A delta counts for its anchor and every ancestor of the anchor.
  await sql`
    create table team_pending (
      id bigint generated always as identity primary key,
      anchor bigint not null,
      users integer not null default 0,
      active_users integer not null default 0,
      business bigint not null default 0,
      created_at timestamptz not null default now()
    )`.execute(db);

  // Rebuilds team_tree from users (migration backfill and the repair tool). Set-based: level k+1
  // of the jump pointers is level k joined with itself (one hash join per power of two, fresh
  // statistics each time or the planner guesses an empty level and nests loops), then the depths
  // top-down and one insert. About 13 s for 100,000 users 10,000 deep on the loaded 2-core box.
  await sql`
    create function team_tree_rebuild() returns void language plpgsql as $fn$
    declare
      lvl integer := 1;
      n bigint;
    begin
      delete from team_tree;
      create temp table if not exists team_tree_jumps (id bigint not null, k integer not null, a bigint not null) on commit drop;
      truncate team_tree_jumps;
      insert into team_tree_jumps select id, 1, referrer_id from users where referrer_id is not null;
      loop
        analyze team_tree_jumps;
        insert into team_tree_jumps
          select x.id, lvl + 1, y.a from team_tree_jumps x join team_tree_jumps y on y.id = x.a and y.k = lvl where x.k = lvl;
        get diagnostics n = row_count;
        exit when n = 0;
        lvl := lvl + 1;
      end loop;
      insert into team_tree (user_id, depth, jumps)
        with recursive down(id, depth) as (
          select id, 0 from users where referrer_id is null
          union all
          select u.id, d.depth + 1 from users u join down d on u.referrer_id = d.id
        )
        select d.id, d.depth, coalesce(j.jumps, '{}') from down d
        left join (select id, array_agg(a order by k) as jumps from team_tree_jumps group by id) j on j.id = d.id;
      truncate team_tree_jumps;
    end $fn$`.execute(db);
  await sql`select team_tree_rebuild()`.execute(db);

  // The tree row of a user (and of any ancestor missing one), from the sponsor's jumps: about
  // log2(depth) primary-key reads. A no-op when the row exists.
  await sql`
    create function team_tree_ensure(p_user bigint) returns void language plpgsql as $fn$
    declare
      chain bigint[] := '{}';
      cur bigint := p_user;
      parent bigint;
      pd integer;
      pj bigint[];
      j bigint[];
      aj bigint[];
      k integer;
      i integer;
    begin
      loop
        perform 1 from team_tree where user_id = cur;
        exit when found;
        chain := chain || cur;
        select referrer_id into cur from users where id = cur;
        exit when cur is null or cardinality(chain) > 100000;
      end loop;
      for i in reverse cardinality(chain)..1 loop
        select referrer_id into parent from users where id = chain[i];
        pd := null;
        if parent is not null then select depth, jumps into pd, pj from team_tree where user_id = parent; end if;
        if pd is null then
          insert into team_tree values (chain[i], 0, '{}') on conflict do nothing;
        else
          j := array[parent];
          k := 1;
          aj := pj;
          -- jumps[k + 1] = (jumps[k]).jumps[k], while the ancestor has one that far.
          while cardinality(aj) >= k loop
            j := j || aj[k];
            select jumps into aj from team_tree where user_id = aj[k];
            k := k + 1;
          end loop;
          insert into team_tree values (chain[i], pd + 1, j) on conflict do nothing;
        end if;
      end loop;
    end $fn$`.execute(db);

  // Is p_x the anchor or one of its ancestors? O(log depth) primary-key reads.
  await sql`
    create function team_covers(p_x bigint, p_anchor bigint) returns boolean language plpgsql stable as $fn$
    declare
      dx integer;
      da integer;
      j bigint[];
      diff integer;
      k integer := 0;
      cur bigint := p_anchor;
    begin
      if p_x = p_anchor then return true; end if;
      select depth into dx from team_tree where user_id = p_x;
      select depth, jumps into da, j from team_tree where user_id = p_anchor;
      if dx is null or da is null or da <= dx then return false; end if;
      diff := da - dx;
      while diff > 0 loop
        if (diff & 1) = 1 then
          cur := j[k + 1];
          if diff > 1 then select jumps into j from team_tree where user_id = cur; end if;
        end if;
        diff := diff >> 1;
        k := k + 1;
      end loop;
      return cur = p_x;
    end $fn$`.execute(db);

  // A sign-up, a removal (p_users = -1) or a stake, in the writer's transaction: the sponsor's
  // direct counters now, one delta for the network counters of the sponsor and its ancestors.
  await sql`
    create function team_push(p_anchor bigint, p_directs integer, p_direct_business bigint, p_users integer, p_active integer, p_business bigint)
    returns void language plpgsql as $fn$
    begin
      if p_directs <> 0 or p_direct_business <> 0 then
        update team_direct set directs = directs + p_directs, direct_business = direct_business + p_direct_business where user_id = p_anchor;
      end if;
      if p_users <> 0 or p_active <> 0 or p_business <> 0 then
        perform team_tree_ensure(p_anchor);
        insert into team_pending (anchor, users, active_users, business) values (p_anchor, p_users, p_active, p_business);
      end if;
    end $fn$`.execute(db);

  // Folds up to p_limit deltas into team_network: one walk up per distinct anchor, one UPDATE of
  // every ancestor touched, the deltas deleted in the same transaction (so a reader sees them
  // either pending or folded, never both). A walk stops after p_levels ancestors: the rest of the
  // delta is re-anchored at the next ancestor in the same transaction (still exact for readers),
  // so no drain transaction holds more than about p_limit × p_levels rows, nor PGlite's single
  // connection for long. One drain at a time (advisory lock; -1 when busy).
  await sql`
    create function team_drain(p_limit integer, p_levels integer default 1000) returns integer language plpgsql as $fn$
    declare
      a_anchor bigint[];
      a_users integer[];
      a_active integer[];
      a_business bigint[];
      n integer;
    begin
      if not pg_try_advisory_xact_lock(7402014) then return -1; end if;
      with d as (
        delete from team_pending where id in (select id from team_pending order by id limit p_limit)
        returning anchor, users, active_users, business
      ), g as (
        select anchor, sum(users)::integer as users, sum(active_users)::integer as active, sum(business)::bigint as business from d group by anchor
      )
      select array_agg(anchor), array_agg(users), array_agg(active), array_agg(business), count(*) into a_anchor, a_users, a_active, a_business, n from g;
      if n = 0 then return 0; end if;
      with recursive up(id, users, active, business, hops) as (
        select s.anchor, s.users, s.active, s.business, 1 from unnest(a_anchor, a_users, a_active, a_business) as s(anchor, users, active, business)
        union all
        select u.referrer_id, up.users, up.active, up.business, up.hops + 1
        from up join users u on u.id = up.id
        where u.referrer_id is not null and up.hops < p_levels
      ), tot as (
        select id, sum(users)::integer as users, sum(active)::integer as active, sum(business)::bigint as business from up group by id
      ), folded as (
        update team_network t set
          network_users = t.network_users + tot.users,
          network_active_users = t.network_active_users + tot.active,
          network_business = t.network_business + tot.business
        from tot where t.user_id = tot.id
      )
      insert into team_pending (anchor, users, active_users, business)
        select u.referrer_id, up.users, up.active, up.business from up join users u on u.id = up.id
        where up.hops = p_levels and u.referrer_id is not null;
      return n;
    end $fn$`.execute(db);

  // What every reader reads: the counters plus whatever is still pending in the reader's downline.
  await sql`
    create view team_stats as
    select d.user_id, d.directs, d.direct_business,
      (n.network_users + coalesce(p.users, 0))::integer as network_users,
      (n.network_active_users + coalesce(p.active, 0))::integer as network_active_users,
      (n.network_business + coalesce(p.business, 0))::bigint as network_business
    from team_direct d
    join team_network n on n.user_id = d.user_id
    left join lateral (
      select sum(q.users) as users, sum(q.active_users) as active, sum(q.business) as business
      from team_pending q where team_covers(d.user_id, q.anchor)
    ) p on true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`select team_drain(2147483647, 1000000)`.execute(db);
  await sql`drop view team_stats`.execute(db);
  await sql`drop function team_drain(integer, integer), team_push(bigint, integer, bigint, integer, integer, bigint), team_covers(bigint, bigint), team_tree_ensure(bigint), team_tree_rebuild()`.execute(
    db,
  );
  await sql`drop table team_pending, team_tree`.execute(db);
  await sql`alter table team_direct rename to team_stats`.execute(db);
  await sql`alter table team_stats add column network_users integer not null default 0, add column network_active_users integer not null default 0, add column network_business bigint not null default 0`.execute(
    db,
  );
  await sql`update team_stats s set network_users = n.network_users, network_active_users = n.network_active_users, network_business = n.network_business
    from team_network n where n.user_id = s.user_id`.execute(db);
  await sql`drop table team_network`.execute(db);
}
