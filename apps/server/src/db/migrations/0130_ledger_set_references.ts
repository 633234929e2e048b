import { sql, type Kysely } from 'kysely';

/**
 * The ledger's references checked once per statement instead of once per row (issue 14, ROI
 * speed; decision docs/decisions/2026-11-23-ledger-set-references.md).
 *
 * A ROI chunk of 10,000 stake-days fired ~80,000 foreign-key triggers (each an SPI query that
 * key-share locks one referenced row): measured, 70 % of the chunk (1.7–2.0 s with them, 0.5–0.6 s
 * with them off). The same guarantees are kept, set-based:
 * - inserting rows that reference users / entries / accounts key-share locks every referenced row
 *   in one statement, in id order (the lock each foreign-key check took), and fails with
 *   foreign_key_violation (23503) when one is missing, as the constraint did. A posting's entry or
 *   account whose current version this transaction wrote (the entry it just inserted, the account
 *   whose balance it just moved) is not locked again: no other transaction can delete a row this
 *   one inserted or holds an update lock on before it commits, and the lock would cost a WAL
 *   record per row (a ROI chunk: 10,000 entries and 10,000 accounts);
 * - deleting a user, an entry or an account still referenced fails with 23503 at the end of the
 *   statement, as NO ACTION did; the inserter's key-share lock makes a racing delete wait for it
 *   and then see its rows (or makes the inserter find the row gone), as with the constraint;
 * - a reference column (and a referenced id) never changes: ledger rows are history, and the ids
 *   are identity columns; an update that changes one is refused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function app_ref_users_check() returns trigger language plpgsql as $fn$
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
  await createPostingsCheck(db);
  await sql`
    create function app_ref_users_deleted() returns trigger language plpgsql as $fn$
    begin
      if exists (select 1 from old_rows o where exists (select 1 from ledger_entries e where e.user_id = o.id)
          or exists (select 1 from income_records r where r.user_id = o.id)
          or exists (select 1 from ledger_accounts a where a.user_id = o.id)
          or exists (select 1 from user_totals t where t.user_id = o.id)) then
        raise exception 'a deleted user is still referenced by the ledger' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`
    create function app_ref_entries_deleted() returns trigger language plpgsql as $fn$
    begin
      if exists (select 1 from old_rows o where exists (select 1 from ledger_postings p where p.entry_id = o.id)) then
        raise exception 'a deleted ledger entry still has postings' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`
    create function app_ref_accounts_deleted() returns trigger language plpgsql as $fn$
    begin
      if exists (select 1 from old_rows o where exists (select 1 from ledger_postings p where p.account_id = o.id)) then
        raise exception 'a deleted ledger account still has postings' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $fn$`.execute(db);
  await sql`
    create function app_ref_immutable() returns trigger language plpgsql as $fn$
    begin
      raise exception 'a reference of % cannot change', tg_table_name using errcode = 'foreign_key_violation';
    end $fn$`.execute(db);

  for (const [table, name] of [
    ['ledger_postings', 'ledger_postings_entry_id_fkey'],
    ['ledger_postings', 'ledger_postings_account_id_fkey'],
    ['ledger_entries', 'ledger_entries_user_id_fkey'],
    ['ledger_accounts', 'ledger_accounts_user_id_fkey'],
    ['income_records', 'income_records_user_id_fkey'],
    ['user_totals', 'user_totals_user_id_fkey'],
  ] as const)
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(name)}`.execute(db);

  for (const table of ['ledger_entries', 'ledger_accounts', 'income_records', 'user_totals']) {
    await sql`create trigger ${sql.id(`${table}_user_ref`)} after insert on ${sql.table(table)}
      referencing new table as new_rows for each statement execute function app_ref_users_check()`.execute(db);
    await sql`create trigger ${sql.id(`${table}_user_ref_fixed`)} before update of user_id on ${sql.table(table)}
      for each row when (old.user_id is distinct from new.user_id) execute function app_ref_immutable()`.execute(db);
  }
  await sql`create trigger ledger_postings_refs after insert on ledger_postings
    referencing new table as new_rows for each statement execute function app_ref_postings_check()`.execute(db);
  await sql`create trigger ledger_postings_refs_fixed before update of entry_id, account_id on ledger_postings
    for each row when (old.entry_id <> new.entry_id or old.account_id <> new.account_id) execute function app_ref_immutable()`.execute(db);

  await sql`create trigger users_ledger_refs after delete on users
    referencing old table as old_rows for each statement execute function app_ref_users_deleted()`.execute(db);
  await sql`create trigger ledger_entries_refs after delete on ledger_entries
    referencing old table as old_rows for each statement execute function app_ref_entries_deleted()`.execute(db);
  await sql`create trigger ledger_accounts_refs after delete on ledger_accounts
    referencing old table as old_rows for each statement execute function app_ref_accounts_deleted()`.execute(db);
  for (const table of ['users', 'ledger_entries', 'ledger_accounts'])
    await sql`create trigger ${sql.id(`${table}_id_fixed`)} before update of id on ${sql.table(table)}
      for each row when (old.id <> new.id) execute function app_ref_immutable()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, trigger] of [
    ['ledger_entries', 'ledger_entries_user_ref'],
    ['ledger_entries', 'ledger_entries_user_ref_fixed'],
    ['ledger_accounts', 'ledger_accounts_user_ref'],
    ['ledger_accounts', 'ledger_accounts_user_ref_fixed'],
    ['income_records', 'income_records_user_ref'],
    ['income_records', 'income_records_user_ref_fixed'],
    ['user_totals', 'user_totals_user_ref'],
    ['user_totals', 'user_totals_user_ref_fixed'],
    ['ledger_postings', 'ledger_postings_refs'],
    ['ledger_postings', 'ledger_postings_refs_fixed'],
    ['users', 'users_ledger_refs'],
    ['ledger_entries', 'ledger_entries_refs'],
    ['ledger_accounts', 'ledger_accounts_refs'],
    ['users', 'users_id_fixed'],
    ['ledger_entries', 'ledger_entries_id_fixed'],
    ['ledger_accounts', 'ledger_accounts_id_fixed'],
  ] as const)
    await sql`drop trigger ${sql.id(trigger)} on ${sql.table(table)}`.execute(db);
  for (const fn of [
    'app_ref_users_check',
    'app_ref_postings_check',
    'app_ref_users_deleted',
    'app_ref_entries_deleted',
    'app_ref_accounts_deleted',
    'app_ref_immutable',
  ])
    await sql`drop function ${sql.id(fn)}()`.execute(db);
  await sql`alter table ledger_postings add constraint ledger_postings_entry_id_fkey foreign key (entry_id) references ledger_entries(id)`.execute(db);
  await sql`alter table ledger_postings add constraint ledger_postings_account_id_fkey foreign key (account_id) references ledger_accounts(id)`.execute(db);
  for (const table of ['ledger_entries', 'ledger_accounts', 'income_records', 'user_totals'])
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_user_id_fkey`)} foreign key (user_id) references users(id)`.execute(db);
}

/** The postings' check as this migration made it (0135 replaces it; its down() puts this one back). */
export async function createPostingsCheck(db: Kysely<unknown>): Promise<void> {
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
