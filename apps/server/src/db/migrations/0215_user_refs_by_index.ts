import { sql, type Kysely } from 'kysely';

/**
 * The users' reference check (app_ref_users_check, migration 0130) finds the users of an insert's
 * rows by index, whatever the size of the first insert it checked in a session.
 *
 * Its queries read only the insert's transition table, with no variable: PL/pgSQL plans such a
 * query once per session and keeps the plan, costed for the rows of the first statement it
 * checked. After one large insert (an ROI chunk's entries, a thousand accounts made at once) the
 * kept plan hashed the new rows against a sequential scan of every user, and every later insert on
 * that connection, a transfer's one entry among them, read the whole users table. Each user is now
 * looked up by its key (a lateral probe, in id order so the key-share locks keep their order),
 * which is the right plan for one row and for a hundred thousand. ledger/post-many-plans.test.ts
 * makes a large insert first and counts the scans of a small one after.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function app_ref_users_check() returns trigger language plpgsql as $fn$
    declare v_want bigint; v_have bigint;
    begin
      select count(distinct n.user_id) into v_want from new_rows n where n.user_id is not null;
      if v_want = 0 then return null; end if;
      select count(*) into v_have
      from (select distinct n.user_id from new_rows n where n.user_id is not null order by n.user_id) d
      cross join lateral (select 1 from users u where u.id = d.user_id for key share of u) l;
      if v_have <> v_want then
        raise exception 'insert on % references a user that does not exist', tg_table_name using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function app_ref_users_check() returns trigger language plpgsql as $fn$
    declare v_want bigint; v_have bigint;
    begin
      select count(distinct n.user_id) into v_want from new_rows n where n.user_id is not null;
      if v_want = 0 then return null; end if;
      select count(*) into v_have from (
        select 1 from users u where u.id in (select n.user_id from new_rows n) order by u.id for key share of u) x;
      if v_have <> v_want then
        raise exception 'insert on % references a user that does not exist', tg_table_name using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
}
