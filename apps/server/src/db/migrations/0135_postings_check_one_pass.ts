import { sql, type Kysely } from 'kysely';

/**
 * The postings' reference check (migration 0130) reads each referenced entry and account once
 * instead of twice when the statement wrote them itself (issue 14, ROI speed).
 *
 * 0130's check counted the referenced rows, then ran a second lookup that key-share locked those
 * another transaction wrote. A ROI chunk and a transfer reference only rows their own transaction
 * wrote (the entries they just inserted, the accounts whose balances they just moved), so that
 * second lookup found nothing to lock and still cost an index probe per row: 20,000 per ROI chunk
 * of 10,000 credits. It now runs only when the first count found rows written by others, and then
 * locks exactly those, in id order, as before. Measured with the triggers of ledger_postings
 * switched off: 2–2.5 s of a 31 s ROI run over 1,000,000 stakes (docs/benchmarks.md).
 *
 * Frozen by value on 2026-11-27 (issue 31, docs/decisions/2026-11-27-migrations-never-change.md):
 * the SQL a shared generator used to build is written out here, exactly as it ran, so this file
 * imports no other migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Per reference (entry_id → ledger_entries, account_id → ledger_accounts): the distinct ids
  // wanted, the rows found and how many of them another transaction wrote, and only if there are
  // such rows, their key-share locks in id order.
  await sql`
    create or replace function app_ref_postings_check() returns trigger language plpgsql as $fn$
    declare v_me xid := pg_current_xact_id()::xid; v_want bigint; v_found bigint; v_others bigint; v_locked bigint;
    begin
      
      select count(*) into v_want from (select distinct n.entry_id from new_rows n) x;
      select count(*), count(*) filter (where r.xmin <> v_me) into v_found, v_others
        from ledger_entries r where r.id in (select n.entry_id from new_rows n);
      if v_others > 0 then
        select count(*) into v_locked from (
          select 1 from ledger_entries r where r.id in (select n.entry_id from new_rows n) and r.xmin <> v_me order by r.id for key share of r) x;
      else
        v_locked := 0;
      end if;
      if v_found <> v_want or v_locked <> v_others then
        raise exception 'a posting references a ledger entry that does not exist' using errcode = 'foreign_key_violation';
      end if;
      
      select count(*) into v_want from (select distinct n.account_id from new_rows n) x;
      select count(*), count(*) filter (where r.xmin <> v_me) into v_found, v_others
        from ledger_accounts r where r.id in (select n.account_id from new_rows n);
      if v_others > 0 then
        select count(*) into v_locked from (
          select 1 from ledger_accounts r where r.id in (select n.account_id from new_rows n) and r.xmin <> v_me order by r.id for key share of r) x;
      else
        v_locked := 0;
      end if;
      if v_found <> v_want or v_locked <> v_others then
        raise exception 'a posting references a ledger account that does not exist' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The check as migration 0130 made it.
  await sql`
    create or replace function app_ref_postings_check() returns trigger language plpgsql as $fn$
    declare v_me xid := pg_current_xact_id()::xid; v_want bigint; v_found bigint; v_others bigint; v_locked bigint;
    begin
      select count(distinct n.entry_id) into v_want from new_rows n;
      select count(*), count(*) filter (where e.xmin <> v_me) into v_found, v_others
        from ledger_entries e where e.id in (select n.entry_id from new_rows n);
      select count(*) into v_locked from (
        select 1 from ledger_entries e where e.id in (select n.entry_id from new_rows n) and e.xmin <> v_me order by e.id for key share of e) x;
      if v_found <> v_want or v_locked <> v_others then
        raise exception 'a posting references a ledger entry that does not exist' using errcode = 'foreign_key_violation';
      end if;
      select count(distinct n.account_id) into v_want from new_rows n;
      select count(*), count(*) filter (where a.xmin <> v_me) into v_found, v_others
        from ledger_accounts a where a.id in (select n.account_id from new_rows n);
      select count(*) into v_locked from (
        select 1 from ledger_accounts a where a.id in (select n.account_id from new_rows n) and a.xmin <> v_me order by a.id for key share of a) x;
      if v_found <> v_want or v_locked <> v_others then
        raise exception 'a posting references a ledger account that does not exist' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
}
