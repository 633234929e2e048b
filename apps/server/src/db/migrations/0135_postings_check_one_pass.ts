import { sql, type Kysely } from 'kysely';
import { createPostingsCheck } from './0130_ledger_set_references';

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
 */
/**
 * One reference of the postings (entry_id → ledger_entries, account_id → ledger_accounts): the
 * distinct ids wanted, the rows found and how many of them another transaction wrote, and only if
 * there are such rows, their key-share locks in id order.
 */
function checkReference(column: 'entry_id' | 'account_id', table: 'ledger_entries' | 'ledger_accounts', what: string) {
  const col = sql.raw(column);
  const tab = sql.raw(table);
  const message = sql.lit(`a posting references a ${what} that does not exist`);
  return sql`
      select count(*) into v_want from (select distinct n.${col} from new_rows n) x;
      select count(*), count(*) filter (where r.xmin <> v_me) into v_found, v_others
        from ${tab} r where r.id in (select n.${col} from new_rows n);
      if v_others > 0 then
        select count(*) into v_locked from (
          select 1 from ${tab} r where r.id in (select n.${col} from new_rows n) and r.xmin <> v_me order by r.id for key share of r) x;
      else
        v_locked := 0;
      end if;
      if v_found <> v_want or v_locked <> v_others then
        raise exception ${message} using errcode = 'foreign_key_violation';
      end if;`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function app_ref_postings_check() returns trigger language plpgsql as $fn$
    declare v_me xid := pg_current_xact_id()::xid; v_want bigint; v_found bigint; v_others bigint; v_locked bigint;
    begin
      ${checkReference('entry_id', 'ledger_entries', 'ledger entry')}
      ${checkReference('account_id', 'ledger_accounts', 'ledger account')}
      return null;
    end $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await createPostingsCheck(db);
}
