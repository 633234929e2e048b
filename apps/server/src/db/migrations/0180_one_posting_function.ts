import { sql, type Kysely } from 'kysely';

/**
 * One implementation of the ledger's posting rules (issue 31; docs/decisions/2026-11-27-one-posting-function.md).
 *
 * `app_post_many` is the only code that writes `ledger_accounts.balance`. It posts a set of
 * entries in one call, each with the rules every money movement keeps:
 * - idempotency: an entry's key is unique; an entry whose key exists is skipped whole (nothing of
 *   it is written) and left out of the result;
 * - balanced: at least two non-zero legs once legs on the same account (and stake) are merged,
 *   summing to zero, else SQLSTATE UL002;
 * - lock order: the users of the entries and accounts key-share locked in id order, then the
 *   accounts row-locked system first (by kind), then by user id and kind (collation C);
 * - conditional debit: a user account never goes below zero (the net of the call per account),
 *   else UL001 'insufficient_balance'; the CHECK constraint stays the last line;
 * - accounts are created on first use.
 * `app_post` is one entry of it. The transfer (`app_transfer`) and the ROI chunk
 * (`app_roi_chunk_part`) call them; `ledger.post` in TypeScript calls `app_post`.
 *
 * A guard makes it the only writer: a statement trigger refuses an UPDATE of balance unless
 * app_post_many flagged it (the transaction-local setting app.ledger_post, set around its one
 * UPDATE and cleared after), and an account inserted with a balance (UL003).
 *
 * The ROI chunk now posts one entry per user and day, with a posting per stake to the user's
 * income account (`ledger_postings.stake_id`) and one to the part's ROI expense account; a
 * chunk is whole users (index stakes_active_user_idx). The entry's key is `roi:<its first
 * stake>:<day>`, the key a one-stake entry always had, so the key still refuses a second credit of
 * that stake for that day. Old ROI postings get their stake from their entry's key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_postings add column stake_id bigint`.execute(db);
  await sql`
    update ledger_postings p set stake_id = split_part(e.idempotency_key, ':', 2)::bigint
    from ledger_entries e, ledger_accounts a
    where e.id = p.entry_id and e.kind = 'roi' and a.id = p.account_id and a.user_id is not null`.execute(db);
  await sql`create index stakes_active_user_idx on stakes (user_id, id) where status = 'active'`.execute(db);
  await sql`drop index stakes_active_idx`.execute(db);

  await sql`
    create function app_post_many(
      p_keys text[], p_kinds text[], p_users bigint[], p_memos text[],
      p_entry int[], p_acc_users bigint[], p_acc_kinds text[], p_amounts bigint[], p_stakes bigint[])
    returns table (o_ord int, o_entry_id bigint)
    language plpgsql as $fn$
    declare
      v_n int := coalesce(cardinality(p_keys), 0);
      v_legs int := coalesce(cardinality(p_entry), 0);
      v_good int;
      v_entries int;
      v_keys int;
      v_groups int;
      v_zero boolean;
      v_ords int[];
      v_ids bigint[];
      v_acc bigint[];
      v_acc_users bigint[];
      v_acc_kinds text[];
      v_deltas bigint[];
      v_want int;
      v_rows int;
      v_flag text;
    begin
      if v_n = 0 then return; end if;
      if cardinality(p_kinds) <> v_n or cardinality(p_users) <> v_n or cardinality(p_memos) <> v_n or cardinality(p_acc_users) <> v_legs
          or cardinality(p_acc_kinds) <> v_legs or cardinality(p_amounts) <> v_legs or cardinality(p_stakes) <> v_legs then
        raise exception 'app_post_many: arrays of different lengths' using errcode = 'UL002';
      end if;
      -- Balanced: every entry 1..n has two or more non-zero legs once legs on the same account
      -- and stake are merged, summing to zero; every key is given once. (v_groups = v_legs and no
      -- zero leg: there is nothing to merge.)
      select count(*) filter (where g.legs >= 2 and g.total = 0 and g.e between 1 and v_n), count(*),
        coalesce(sum(g.groups), 0), coalesce(bool_or(g.zero), false), (select count(distinct k) from unnest(p_keys) k)
      into v_good, v_entries, v_groups, v_zero, v_keys
      from (
        select l.e, count(*) filter (where l.amount <> 0) as legs, sum(l.amount) as total, count(*) as groups, bool_or(l.amount = 0) as zero
        from (
          select x.e, sum(x.a) as amount from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
          group by x.e, x.u, x.k, x.s) l
        group by l.e) g;
      if v_good <> v_n or v_entries <> v_n or v_keys <> v_n then
        raise exception 'ledger entry % does not balance or has fewer than two postings (or a key is given twice)', (
          select p_keys[i] from generate_subscripts(p_keys, 1) i
          where (select count(*) filter (where l.a <> 0) < 2 or coalesce(sum(l.a), 0) <> 0
                 from (select sum(x.a) as a from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
                       where x.e = i group by x.u, x.k, x.s) l)
          limit 1) using errcode = 'UL002';
      end if;

      -- Lock order 1: the users of the entries and accounts, key-share in id order (the lock a
      -- reference takes, up front so no user row is locked after an account). Then idempotency:
      -- entries whose key exists are skipped whole.
      with lk as (
        select 1 from users u where u.id = any(array(select unnest(p_users) union select unnest(p_acc_users))) order by u.id for key share),
      ins as (
        insert into ledger_entries (idempotency_key, kind, user_id, memo)
        select x.k, x.kd, x.u, x.m from unnest(p_keys, p_kinds, p_users, p_memos) x(k, kd, u, m), (select count(*) from lk) o
        on conflict (idempotency_key) do nothing
        returning id, idempotency_key)
      select array_agg(x.ord::int), array_agg(ins.id) into v_ords, v_ids
      from ins join unnest(p_keys) with ordinality x(k, ord) on x.k = ins.idempotency_key;
      if v_ords is null then return; end if;

      -- The accounts of the entries written, with the net change of each, found by one index
      -- probe each (a lateral lookup: never a scan of the table per account, whatever the
      -- planner's statistics say); an account used for the first time is created (at zero),
      -- then looked up again.
      for i in 1..2 loop
        with d as (
          select x.u, x.k, sum(x.a)::bigint as delta
          from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts) x(e, u, k, a)
          where cardinality(v_ords) = v_n or x.e = any(v_ords)
          group by x.u, x.k)
        select array_agg(a.id), array_agg(d.u), array_agg(d.k), array_agg(d.delta), (select count(*) from d)
        into v_acc, v_acc_users, v_acc_kinds, v_deltas, v_want
        from d cross join lateral (
          select a.id from ledger_accounts a where (a.user_id = d.u or (a.user_id is null and d.u is null)) and a.kind = d.k limit 1) a;
        exit when coalesce(cardinality(v_acc), 0) = v_want or i = 2;
        insert into ledger_accounts (user_id, kind)
        select x.u, x.k from unnest(p_acc_users, p_acc_kinds) x(u, k) group by x.u, x.k
        on conflict (user_id, kind) do nothing;
      end loop;
      if coalesce(cardinality(v_acc), 0) <> v_want then
        raise exception 'app_post_many: an account could not be found' using errcode = 'UL002';
      end if;

      -- Lock order 2: the accounts, system accounts first (by kind), then by user id and kind.
      perform 1 from ledger_accounts a where a.id = any(v_acc) order by a.user_id is not null, a.user_id, a.kind collate "C" for update;

      -- Conditional debit: a user account never goes below zero. The flag lets this one statement
      -- past the balance guard (app_balance_guard_update) and is cleared right after it.
      v_flag := set_config('app.ledger_post', 'on', true);
      update ledger_accounts a set balance = a.balance + x.d
      from unnest(v_acc, v_deltas) x(id, d)
      where a.id = x.id and (a.user_id is null or a.balance + x.d >= 0);
      get diagnostics v_rows = row_count;
      v_flag := set_config('app.ledger_post', '', true);
      if v_rows <> v_want then
        raise exception 'insufficient_balance' using errcode = 'UL001';
      end if;

      if v_groups = v_legs and not v_zero then
        -- Nothing to merge: one posting per leg.
        insert into ledger_postings (entry_id, account_id, amount, stake_id)
        select w.id, acc.id, x.a, x.s
        from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
        join unnest(v_ords, v_ids) w(e, id) on w.e = x.e
        join unnest(v_acc, v_acc_users, v_acc_kinds) acc(id, u, k) on coalesce(acc.u, 0) = coalesce(x.u, 0) and acc.k = x.k;
      else
        insert into ledger_postings (entry_id, account_id, amount, stake_id)
        select w.id, acc.id, sum(x.a), x.s
        from unnest(p_entry, p_acc_users, p_acc_kinds, p_amounts, p_stakes) x(e, u, k, a, s)
        join unnest(v_ords, v_ids) w(e, id) on w.e = x.e
        join unnest(v_acc, v_acc_users, v_acc_kinds) acc(id, u, k) on coalesce(acc.u, 0) = coalesce(x.u, 0) and acc.k = x.k
        group by w.id, acc.id, x.s
        having sum(x.a) <> 0;
      end if;

      for i in 1..cardinality(v_ords) loop
        o_ord := v_ords[i];
        o_entry_id := v_ids[i];
        return next;
      end loop;
    end
    $fn$`.execute(db);

  await sql`
    create function app_post(p_key text, p_kind text, p_user bigint, p_memo text, p_acc_users bigint[], p_acc_kinds text[], p_amounts bigint[])
    returns bigint
    language sql as $fn$
      select w.o_entry_id from app_post_many(array[p_key], array[p_kind], array[p_user], array[p_memo],
        array_fill(1, array[cardinality(p_amounts)]), p_acc_users, p_acc_kinds, p_amounts,
        array_fill(null::bigint, array[cardinality(p_amounts)])) w
    $fn$`.execute(db);

  // The guard: app_post_many is the only balance writer.
  await sql`
    create function app_balance_guard_update() returns trigger language plpgsql as $fn$
    begin
      -- Set by app_post_many around its one UPDATE, cleared after it (a transaction-local setting:
      -- an error rolls it back too). balance-writers.test.ts lets no other code set it.
      if current_setting('app.ledger_post', true) is distinct from 'on' then
        raise exception 'ledger_accounts.balance is written only by app_post_many' using errcode = 'UL003';
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`
    create function app_balance_guard_insert() returns trigger language plpgsql as $fn$
    begin
      if exists (select 1 from new_rows n where n.balance <> 0) then
        raise exception 'an account starts at zero: ledger_accounts.balance is written only by app_post_many' using errcode = 'UL003';
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`create trigger ledger_accounts_balance_writer before update of balance on ledger_accounts
    for each statement execute function app_balance_guard_update()`.execute(db);
  await sql`create trigger ledger_accounts_balance_start after insert on ledger_accounts
    referencing new table as new_rows for each statement execute function app_balance_guard_insert()`.execute(db);

  await sql`
    create or replace function app_transfer(p_sender bigint, p_username text, p_type text, p_amount bigint)
    returns table (transfer_id bigint, receiver_id bigint)
    language plpgsql as $fn$
    declare
      v_receiver bigint;
      v_status text;
      v_transfer bigint;
      v_kind text := case when p_type = 'deposit' then 'deposit' else 'income' end;
    begin
      select u.id, u.status into v_receiver, v_status from users u where u.username = p_username;
      if v_receiver is null or v_status = 'blocked' then raise exception 'user_not_found' using errcode = 'UT001'; end if;
      if v_receiver = p_sender then raise exception 'self_transfer' using errcode = 'UT002'; end if;
      -- Both users key-share locked in id order before the transfer row references them.
      perform 1 from users u where u.id in (p_sender, v_receiver) order by u.id for key share;
      insert into transfers (sender_id, receiver_id, type, amount) values (p_sender, v_receiver, p_type, p_amount) returning id into v_transfer;
      perform app_post_many(array['transfer:' || v_transfer], array['transfer'], array[p_sender], array['Transfer #' || v_transfer || ' to ' || p_username],
        array[1, 1], array[p_sender, v_receiver], array[v_kind, v_kind], array[-p_amount, p_amount], array[null, null]::bigint[]);
      return query select v_transfer, v_receiver;
    end
    $fn$`.execute(db);

  await sql`
    create or replace function app_roi_chunk_part(p_after bigint, p_date date, p_limit int, p_lock boolean, p_part int, p_parts int)
    returns table (o_last_id bigint, o_stakes int, o_credits int, o_total bigint, o_completed int)
    language plpgsql set jit = off set plan_cache_mode = force_custom_plan set enable_mergejoin = off as $fn$
    declare
      v_sys_kind text := case when p_part = 0 then 'system:roi_expense' else 'system:roi_expense:' || p_part end;
      v_ids bigint[];
      v_last bigint;
      -- the chunk's stake-days (stake, user, day, credit, the entry of its user and day)
      d_stake bigint[];
      d_user bigint[];
      d_day date[];
      d_credit bigint[];
      d_entry int[];
      -- per stake: what the chunk plans for it (all its due days, written or not)
      s_id bigint[];
      s_per_day bigint[];
      s_base date[];
      s_cap bigint[];
      s_planned bigint[];
      s_last_day date[];
      -- the entries, one per user and day
      e_keys text[];
      e_users bigint[];
      e_memos text[];
      e_totals bigint[];
      v_n int;
      v_written int[];
    begin
      if p_lock then perform pg_advisory_xact_lock(7402001 + p_part); end if;
      -- A chunk is whole users, after p_after in id order. The next p_limit × p_parts active stakes
      -- in (user, id) order are read from the index alone (stakes_active_user_idx: no sort, no
      -- table scan, whatever the table's size), then the rest of the last user's; of those, this
      -- part's due stakes are locked and read again under the lock. v_last, the last user seen,
      -- is the cursor, even when none of the chunk's stakes was due.
      select array_agg(c.id), max(c.user_id) into v_ids, v_last from (
        select s.id, s.user_id from stakes s
        where s.status = 'active' and s.user_id > p_after
        order by s.user_id, s.id limit p_limit * p_parts) c;
      if v_ids is null then
        return query select null::bigint, 0, 0, 0::bigint, 0;
        return;
      end if;
      v_ids := v_ids || array(select s.id from stakes s where s.status = 'active' and s.user_id = v_last and s.id <> all(v_ids));
      v_ids := array(
        select s.id from stakes s
        where s.id = any(v_ids) and s.status = 'active' and s.start_date < p_date
          and (s.last_roi_date is null or s.last_roi_date < p_date)
          and (p_parts = 1 or s.user_id % p_parts = p_part)
        order by s.id for update);
      if cardinality(v_ids) = 0 then
        return query select v_last, 0, 0, 0::bigint, 0;
        return;
      end if;

      -- Each stake-day's credit exactly as @app/core percentOf: (amount × rate in micro-units) /
      -- (100 × 1,000,000), truncated; the last one trimmed to the cap. k is the number of days due:
      -- up to p_date, and no more than the cap leaves room for. Every array below is aggregated in
      -- one pass over its rows, so its elements line up with each other's.
      with s as (
        select c.*, case when c.per_day > 0 and c.cap > c.roi_paid then least(p_date - c.base, (c.cap - c.roi_paid + c.per_day - 1) / c.per_day) else 0 end as k
        from (
          select st.id, st.user_id, st.roi_paid, coalesce(st.last_roi_date, st.start_date) as base,
            div(st.amount::numeric * st.daily_rate * 1000000, 100000000)::bigint as per_day,
            div(st.amount::numeric * st.cap_percentage * 1000000, 100000000)::bigint as cap
          from stakes st where st.id = any(v_ids)) c),
      d as (
        select s.id, s.user_id, s.base + g.n as day, least(s.per_day, s.cap - s.roi_paid - s.per_day * (g.n - 1)) as credit
        from s cross join lateral generate_series(1, s.k::int) g(n)),
      de as (select d.*, dense_rank() over (order by d.user_id, d.day)::int as entry from d)
      select x.*, y.* into d_stake, d_user, d_day, d_credit, d_entry, v_n, s_id, s_per_day, s_base, s_cap, s_planned, s_last_day
      from (select array_agg(de.id), array_agg(de.user_id), array_agg(de.day), array_agg(de.credit), array_agg(de.entry), coalesce(max(de.entry), 0) from de) x,
        (select array_agg(s.id), array_agg(s.per_day), array_agg(s.base), array_agg(s.cap),
           array_agg(s.roi_paid + case when s.k > 0 then least(s.per_day * s.k, s.cap - s.roi_paid) else 0 end),
           array_agg(case when s.k > 0 then s.base + s.k::int end)
         from s) y;

      if v_n > 0 then
        -- One entry per user and day, keyed by its first stake: roi:<stake>:<yyyy-mm-dd>.
        select array_agg('roi:' || g.first || ':' || to_char(g.day, 'YYYY-MM-DD') order by g.entry),
          array_agg(g.user_id order by g.entry),
          array_agg(case when g.n = 1 then 'ROI ' || to_char(g.day, 'YYYY-MM-DD') || ' on stake #' || g.first
            else 'ROI ' || to_char(g.day, 'YYYY-MM-DD') || ' on ' || g.n || ' stakes' end order by g.entry),
          array_agg(-g.total order by g.entry)
        into e_keys, e_users, e_memos, e_totals
        from (
          select x.entry, min(x.user_id) as user_id, min(x.day) as day, min(x.stake) as first, count(*) as n, sum(x.credit)::bigint as total
          from unnest(d_entry, d_user, d_day, d_stake, d_credit) x(entry, user_id, day, stake, credit)
          group by x.entry) g;
        -- A posting per stake-day to the user's income account, one per entry from the part's ROI expense.
        select array_agg(w.o_ord) into v_written
        from app_post_many(e_keys, array_fill('roi'::text, array[v_n]), e_users, e_memos,
          d_entry || array(select generate_series(1, v_n)),
          d_user || array_fill(null::bigint, array[v_n]),
          array_fill('income'::text, array[cardinality(d_entry)]) || array_fill(v_sys_kind, array[v_n]),
          d_credit || e_totals,
          d_stake || array_fill(null::bigint, array[v_n])) w;
      end if;

      -- Totals and the stakes' progress for exactly the entries written now (a racing or repeated
      -- run credits nothing twice); a stake that cannot earn still moves its last_roi_date on.
      return query
      with w as (
        select x.stake, x.user_id, x.credit
        from unnest(d_entry, d_stake, d_user, d_credit) x(entry, stake, user_id, credit)
        where cardinality(v_written) = v_n or x.entry in (select unnest(v_written))),
      pu as (select w.user_id, sum(w.credit)::bigint as amount from w group by w.user_id),
      ut as (
        insert into user_totals (user_id, roi_income) select pu.user_id, pu.amount from pu order by pu.user_id
        on conflict (user_id) do update set roi_income = user_totals.roi_income + excluded.roi_income, updated_at = now()),
      ps as (select w.stake as id, sum(w.credit)::bigint as paid_now from w group by w.stake),
      pl as (select * from unnest(s_id, s_per_day, s_base, s_cap, s_planned, s_last_day) p(id, per_day, base, cap, planned, last_day)),
      st as (
        update stakes x set roi_paid = x.roi_paid + coalesce(ps.paid_now, 0),
          last_roi_date = case when pl.per_day = 0 then p_date else coalesce(pl.last_day, pl.base) end,
          status = case when pl.planned >= pl.cap then 'completed' else x.status end
        from pl left join ps on ps.id = pl.id
        where x.id = pl.id and x.id = any(s_id)
        returning pl.planned >= pl.cap as done)
      select v_last, cardinality(v_ids), (select count(*) from w)::int,
        (select coalesce(sum(w.credit), 0) from w)::bigint, (select count(*) from st where st.done)::int;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(LEGACY_ROI_CHUNK).execute(db);
  await sql.raw(LEGACY_TRANSFER).execute(db);
  await sql`drop trigger ledger_accounts_balance_writer on ledger_accounts`.execute(db);
  await sql`drop trigger ledger_accounts_balance_start on ledger_accounts`.execute(db);
  await sql`drop function app_balance_guard_update(), app_balance_guard_insert()`.execute(db);
  await sql`drop function app_post(text, text, bigint, text, bigint[], text[], bigint[])`.execute(db);
  await sql`drop function app_post_many(text[], text[], bigint[], text[], int[], bigint[], text[], bigint[], bigint[])`.execute(db);
  await sql`create index stakes_active_idx on stakes (id) where status = 'active'`.execute(db);
  await sql`drop index stakes_active_user_idx`.execute(db);
  await sql`alter table ledger_postings drop column stake_id`.execute(db);
}

// The functions as migrations 0100 and 0137 left them, by value (a migration never imports another).
const LEGACY_TRANSFER = `CREATE OR REPLACE FUNCTION app_transfer(p_sender bigint, p_username text, p_type text, p_amount bigint)
 RETURNS TABLE(transfer_id bigint, receiver_id bigint)
 LANGUAGE plpgsql
AS $function$
    declare
      v_receiver bigint;
      v_status text;
      v_transfer bigint;
      v_entry bigint;
      v_from bigint;
      v_to bigint;
      v_kind text := case when p_type = 'deposit' then 'deposit' else 'income' end;
    begin
      select u.id, u.status into v_receiver, v_status from users u where u.username = p_username;
      if v_receiver is null or v_status = 'blocked' then raise exception 'user_not_found'; end if;
      if v_receiver = p_sender then raise exception 'self_transfer'; end if;
      perform 1 from users u where u.id in (p_sender, v_receiver) order by u.id for key share;
      insert into transfers (sender_id, receiver_id, type, amount) values (p_sender, v_receiver, p_type, p_amount) returning id into v_transfer;
      insert into ledger_entries (idempotency_key, kind, user_id, memo)
        values ('transfer:' || v_transfer, 'transfer', p_sender, 'Transfer #' || v_transfer || ' to ' || p_username) returning id into v_entry;
      insert into ledger_accounts (user_id, kind) values (v_receiver, v_kind) on conflict (user_id, kind) do nothing;
      perform 1 from ledger_accounts a where a.user_id in (p_sender, v_receiver) and a.kind = v_kind order by a.user_id for update;
      update ledger_accounts a set balance = a.balance - p_amount
        where a.user_id = p_sender and a.kind = v_kind and a.balance - p_amount >= 0 returning a.id into v_from;
      if v_from is null then raise exception 'insufficient_balance'; end if;
      update ledger_accounts a set balance = a.balance + p_amount where a.user_id = v_receiver and a.kind = v_kind returning a.id into v_to;
      insert into ledger_postings (entry_id, account_id, amount) values (v_entry, v_from, -p_amount), (v_entry, v_to, p_amount);
      return query select v_transfer, v_receiver;
    end
    $function$`;

const LEGACY_ROI_CHUNK = `CREATE OR REPLACE FUNCTION app_roi_chunk_part(p_after bigint, p_date date, p_limit integer, p_lock boolean, p_part integer, p_parts integer)
 RETURNS TABLE(o_last_id bigint, o_stakes integer, o_credits integer, o_total bigint, o_completed integer)
 LANGUAGE plpgsql
 SET jit TO 'off'
 SET plan_cache_mode TO 'force_custom_plan'
AS $function$
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
    $function$`;
