import { sql, type Kysely } from 'kysely';

/**
 * The ROI chunk writes its income records with a plain insert (issue 14, ROI speed). They are
 * written only for the entries the same statement has just inserted, and an entry's key is unique,
 * so the records' own `on conflict do nothing` could never skip a row a correct ledger holds; it
 * cost a speculative insert per credit (a probe of the key's index before the row, a confirmation
 * record in the WAL after it). Should a record with that key exist without its entry (a ledger
 * already broken), the chunk now fails with 23505 and is retried, then the run fails, instead of
 * writing an entry whose income record is missing: ledger:verify would flag either, this one stops
 * first.
 *
 * Frozen by value on 2026-11-27 (issue 31, docs/decisions/2026-11-27-migrations-never-change.md):
 * the SQL a shared generator used to build is written out here, exactly as it ran, so this file
 * imports no other migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function app_roi_chunk_part(p_after bigint, p_date date, p_limit int, p_lock boolean, p_part int, p_parts int)
    returns table (o_last_id bigint, o_stakes int, o_credits int, o_total bigint, o_completed int)
    language plpgsql set jit = off set plan_cache_mode = force_custom_plan as $fn$
    declare
      v_ids bigint[];
      v_users bigint[];
      v_sys bigint;
      v_last bigint;
      v_sys_kind text := case when p_part = 0 then 'system:roi_expense' else 'system:roi_expense:' || p_part end;
    begin
      if p_lock then perform pg_advisory_xact_lock(7402001 + p_part); end if;
      select array_agg(x.id order by x.id), array_agg(distinct x.user_id order by x.user_id), max(x.id) into v_ids, v_users, v_last from (
        select s.id, s.user_id from stakes s
        where s.status = 'active' and s.id > p_after and s.start_date < p_date
          and (s.last_roi_date is null or s.last_roi_date < p_date)
          and (p_parts = 1 or s.user_id % p_parts = p_part)
        order by s.id limit p_limit for update) x;
      if v_ids is null then
        return query select null::bigint, 0, 0, 0::bigint, 0;
        return;
      end if;
      perform 1 from users u where u.id = any(v_users) order by u.id for key share;
      insert into ledger_accounts (user_id, kind)
        select null, v_sys_kind union all (select u, 'income' from unnest(v_users) u order by u)
        on conflict (user_id, kind) do nothing;
      perform 1 from ledger_accounts a
        where (a.user_id is null and a.kind = v_sys_kind) or (a.user_id = any(v_users) and a.kind = 'income')
        order by a.user_id is not null, a.user_id, a.kind collate "C" for update;
      select a.id into v_sys from ledger_accounts a where a.user_id is null and a.kind = v_sys_kind;
      return query
      with s as (
        select st.id, st.user_id, st.daily_rate, st.roi_paid, coalesce(st.last_roi_date, st.start_date) as base,
          div(st.amount::numeric * st.daily_rate * 1000000, 100000000)::bigint as per_day,
          div(st.amount::numeric * st.cap_percentage * 1000000, 100000000)::bigint as cap
        from unnest(v_ids) i(id) join stakes st on st.id = i.id
        where st.id > p_after and st.id <= v_last),
      d as (
        select s.id, s.user_id, s.daily_rate, s.base + g.n as day, to_char(s.base + g.n, 'YYYY-MM-DD') as day_text,
          least(s.per_day, s.cap - s.roi_paid - s.per_day * (g.n - 1)) as credit
        from s cross join lateral generate_series(1, least(p_date - s.base,
          case when s.per_day > 0 and s.cap > s.roi_paid then (s.cap - s.roi_paid + s.per_day - 1) / s.per_day else 0 end)::int) g(n)),
      e as (
        insert into ledger_entries (idempotency_key, kind, user_id, memo)
        select 'roi:' || d.id || ':' || d.day_text, 'roi', d.user_id, 'ROI ' || d.day_text || ' on stake #' || d.id
        from d order by d.id, d.day
        on conflict (idempotency_key) do nothing
        returning id, idempotency_key),
      w as (select d.*, e.id as entry_id, e.idempotency_key as key from d join e on e.idempotency_key = 'roi:' || d.id || ':' || d.day_text),
      pu as (select w.user_id, sum(w.credit)::bigint as amount from w group by w.user_id),
      acc as (select a.id, a.user_id from ledger_accounts a where a.user_id = any(v_users) and a.kind = 'income'),
      p as (
        insert into ledger_postings (entry_id, account_id, amount)
        select w.entry_id, v_sys, -w.credit from w
        union all
        select w.entry_id, acc.id, w.credit from w join acc on acc.user_id = w.user_id),
      ua as (
        update ledger_accounts a set balance = a.balance + pu.amount
        from pu where a.user_id = pu.user_id and a.kind = 'income' and a.user_id = any(v_users)),
      sa as (update ledger_accounts a set balance = a.balance - t.amount from (select sum(w.credit)::bigint as amount from w) t where a.id = v_sys and t.amount is not null),
      ir as (
        insert into income_records (user_id, type, amount, note, source_id, for_date, idempotency_key)
        select w.user_id, 1, w.credit, 'Daily ROI ' || trim_scale(w.daily_rate)::text || '% on stake #' || w.id || ' for ' || w.day_text, w.id::text, w.day, w.key
        from w
        ),
      ut as (
        insert into user_totals (user_id, roi_income) select pu.user_id, pu.amount from pu order by pu.user_id
        on conflict (user_id) do update set roi_income = user_totals.roi_income + excluded.roi_income, updated_at = now()),
      ps as (select w.id, sum(w.credit)::bigint as paid_now from w group by w.id),
      pl as (
        select s.id, s.per_day, s.base, s.cap, s.roi_paid + coalesce(sum(d.credit), 0) as planned, max(d.day) as last_day
        from s left join d on d.id = s.id group by s.id, s.per_day, s.base, s.cap, s.roi_paid),
      st as (
        update stakes x set roi_paid = x.roi_paid + coalesce(ps.paid_now, 0),
          last_roi_date = case when pl.per_day = 0 then p_date else coalesce(pl.last_day, pl.base) end,
          status = case when pl.planned >= pl.cap then 'completed' else x.status end
        from pl left join ps on ps.id = pl.id
        where x.id = pl.id and x.id > p_after and x.id <= v_last
        returning pl.planned >= pl.cap as done)
      select v_last, array_length(v_ids, 1), (select count(*) from w)::int,
        (select coalesce(sum(w.credit), 0) from w)::bigint, (select count(*) from st where st.done)::int;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The function as migration 0132 made it.
  await sql`
    create or replace function app_roi_chunk_part(p_after bigint, p_date date, p_limit int, p_lock boolean, p_part int, p_parts int)
    returns table (o_last_id bigint, o_stakes int, o_credits int, o_total bigint, o_completed int)
    language plpgsql set jit = off set plan_cache_mode = force_custom_plan as $fn$
    declare
      v_ids bigint[];
      v_users bigint[];
      v_sys bigint;
      v_last bigint;
      v_sys_kind text := case when p_part = 0 then 'system:roi_expense' else 'system:roi_expense:' || p_part end;
    begin
      if p_lock then perform pg_advisory_xact_lock(7402001 + p_part); end if;
      select array_agg(x.id order by x.id), array_agg(distinct x.user_id order by x.user_id), max(x.id) into v_ids, v_users, v_last from (
        select s.id, s.user_id from stakes s
        where s.status = 'active' and s.id > p_after and s.start_date < p_date
          and (s.last_roi_date is null or s.last_roi_date < p_date)
          and (p_parts = 1 or s.user_id % p_parts = p_part)
        order by s.id limit p_limit for update) x;
      if v_ids is null then
        return query select null::bigint, 0, 0, 0::bigint, 0;
        return;
      end if;
      perform 1 from users u where u.id = any(v_users) order by u.id for key share;
      insert into ledger_accounts (user_id, kind)
        select null, v_sys_kind union all (select u, 'income' from unnest(v_users) u order by u)
        on conflict (user_id, kind) do nothing;
      perform 1 from ledger_accounts a
        where (a.user_id is null and a.kind = v_sys_kind) or (a.user_id = any(v_users) and a.kind = 'income')
        order by a.user_id is not null, a.user_id, a.kind collate "C" for update;
      select a.id into v_sys from ledger_accounts a where a.user_id is null and a.kind = v_sys_kind;
      return query
      with s as (
        select st.id, st.user_id, st.daily_rate, st.roi_paid, coalesce(st.last_roi_date, st.start_date) as base,
          div(st.amount::numeric * st.daily_rate * 1000000, 100000000)::bigint as per_day,
          div(st.amount::numeric * st.cap_percentage * 1000000, 100000000)::bigint as cap
        from unnest(v_ids) i(id) join stakes st on st.id = i.id
        where st.id > p_after and st.id <= v_last),
      d as (
        select s.id, s.user_id, s.daily_rate, s.base + g.n as day, to_char(s.base + g.n, 'YYYY-MM-DD') as day_text,
          least(s.per_day, s.cap - s.roi_paid - s.per_day * (g.n - 1)) as credit
        from s cross join lateral generate_series(1, least(p_date - s.base,
          case when s.per_day > 0 and s.cap > s.roi_paid then (s.cap - s.roi_paid + s.per_day - 1) / s.per_day else 0 end)::int) g(n)),
      e as (
        insert into ledger_entries (idempotency_key, kind, user_id, memo)
        select 'roi:' || d.id || ':' || d.day_text, 'roi', d.user_id, 'ROI ' || d.day_text || ' on stake #' || d.id
        from d order by d.id, d.day
        on conflict (idempotency_key) do nothing
        returning id, idempotency_key),
      w as (select d.*, e.id as entry_id, e.idempotency_key as key from d join e on e.idempotency_key = 'roi:' || d.id || ':' || d.day_text),
      pu as (select w.user_id, sum(w.credit)::bigint as amount from w group by w.user_id),
      acc as (select a.id, a.user_id from ledger_accounts a where a.user_id = any(v_users) and a.kind = 'income'),
      p as (
        insert into ledger_postings (entry_id, account_id, amount)
        select w.entry_id, v_sys, -w.credit from w
        union all
        select w.entry_id, acc.id, w.credit from w join acc on acc.user_id = w.user_id),
      ua as (
        update ledger_accounts a set balance = a.balance + pu.amount
        from pu where a.user_id = pu.user_id and a.kind = 'income' and a.user_id = any(v_users)),
      sa as (update ledger_accounts a set balance = a.balance - t.amount from (select sum(w.credit)::bigint as amount from w) t where a.id = v_sys and t.amount is not null),
      ir as (
        insert into income_records (user_id, type, amount, note, source_id, for_date, idempotency_key)
        select w.user_id, 1, w.credit, 'Daily ROI ' || trim_scale(w.daily_rate)::text || '% on stake #' || w.id || ' for ' || w.day_text, w.id::text, w.day, w.key
        from w
        on conflict (idempotency_key) do nothing),
      ut as (
        insert into user_totals (user_id, roi_income) select pu.user_id, pu.amount from pu order by pu.user_id
        on conflict (user_id) do update set roi_income = user_totals.roi_income + excluded.roi_income, updated_at = now()),
      ps as (select w.id, sum(w.credit)::bigint as paid_now from w group by w.id),
      pl as (
        select s.id, s.per_day, s.base, s.cap, s.roi_paid + coalesce(sum(d.credit), 0) as planned, max(d.day) as last_day
        from s left join d on d.id = s.id group by s.id, s.per_day, s.base, s.cap, s.roi_paid),
      st as (
        update stakes x set roi_paid = x.roi_paid + coalesce(ps.paid_now, 0),
          last_roi_date = case when pl.per_day = 0 then p_date else coalesce(pl.last_day, pl.base) end,
          status = case when pl.planned >= pl.cap then 'completed' else x.status end
        from pl left join ps on ps.id = pl.id
        where x.id = pl.id and x.id > p_after and x.id <= v_last
        returning pl.planned >= pl.cap as done)
      select v_last, array_length(v_ids, 1), (select count(*) from w)::int,
        (select coalesce(sum(w.credit), 0) from w)::bigint, (select count(*) from st where st.done)::int;
    end
    $fn$`.execute(db);
}
