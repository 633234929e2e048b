import { sql, type Kysely } from 'kysely';

/**
 * `app_post`, the one-entry wrapper 0180 made beside `app_post_many`, has had no caller since
 * `ledger.post` became `postMany` of one entry (docs/decisions/2026-11-27-one-posting-function.md):
 * a second way into the posting function that nothing uses is dropped (issue 50).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function app_post(text, text, bigint, text, bigint[], text[], bigint[])`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function app_post(p_key text, p_kind text, p_user bigint, p_memo text, p_acc_users bigint[], p_acc_kinds text[], p_amounts bigint[])
    returns bigint language sql as $$
      select w.o_entry_id from app_post_many(array[p_key], array[p_kind], array[p_user], array[p_memo],
        array_fill(1, array[cardinality(p_amounts)]), p_acc_users, p_acc_kinds, p_amounts,
        array_fill(null::bigint, array[cardinality(p_amounts)])) w
    $$`.execute(db);
}
