import { sql, type Kysely } from 'kysely';

/**
 * A small call of app_post_many (a transfer, one ledger.post) reaches its users and accounts by
 * index, whatever the tables' size (issue 51: transfers under 0.7× the bare-SQL transfer).
 *
 * Its plans are made once (migration 0182), when a plan over unnest() of a parameter is costed at
 * 10 rows. Against a table of a thousand users or accounts that made a sequential scan look
 * cheaper than ten index probes, so two statements read the whole table on every transfer: the
 * users' key-share lock (1,000 rows read for 2) and the balance UPDATE (1,001 for 2), seen with
 * auto_explain on the transfer benchmark's data. Measured there on PostgreSQL 15 (pgbench, one
 * client, app_transfer alone, synchronous_commit off): 0.68-0.88 ms a call with the scans,
 * 0.51-0.58 ms without. ledger/post-many-plans.test.ts counts the scans. A large call (an ROI chunk of 100,000 legs) is planned for its own sizes,
 * where a scan may well be right, so only a small call turns the scans off, for its own statements
 * (and the reference triggers they fire), and the caller's setting is put back before it returns.
 *
 * Like 0182, an edit of the definition the previous migrations left (the whole function, as it now
 * is, reads in db/schema.sql); down() makes the reverse edit.
 */
const SIGNATURE = 'app_post_many(text[], text[], bigint[], text[], int[], bigint[], text[], bigint[], bigint[])';

const EDITS: [before: string, after: string][] = [
  [
    "      v_plan text := current_setting('plan_cache_mode');\n",
    "      v_plan text := current_setting('plan_cache_mode');\n      v_seqscan text := current_setting('enable_seqscan');\n",
  ],
  [
    "      perform set_config('plan_cache_mode', case when v_legs <= 32 then 'force_generic_plan' else 'force_custom_plan' end, true);\n",
    "      perform set_config('plan_cache_mode', case when v_legs <= 32 then 'force_generic_plan' else 'force_custom_plan' end, true);\n      if v_legs <= 32 then perform set_config('enable_seqscan', 'off', true); end if;\n",
  ],
  [
    "      if v_ords is null then perform set_config('plan_cache_mode', v_plan, true); return; end if;\n",
    "      if v_ords is null then perform set_config('plan_cache_mode', v_plan, true); perform set_config('enable_seqscan', v_seqscan, true); return; end if;\n",
  ],
  [
    "      perform set_config('plan_cache_mode', v_plan, true);\n      for i in 1..cardinality(v_ords) loop\n",
    "      perform set_config('plan_cache_mode', v_plan, true);\n      perform set_config('enable_seqscan', v_seqscan, true);\n      for i in 1..cardinality(v_ords) loop\n",
  ],
];

async function edit(db: Kysely<unknown>, direction: 'up' | 'down'): Promise<void> {
  const { rows } = await sql<{ def: string }>`select pg_get_functiondef(${SIGNATURE}::regprocedure) as def`.execute(db);
  let def = rows[0]!.def;
  for (const [before, after] of EDITS) {
    const [from, to] = direction === 'up' ? [before, after] : [after, before];
    // Each edit must find its text exactly once, or the function is not the one this migration knows.
    if (def.split(from).length !== 2) throw new Error(`0214: app_post_many does not hold ${JSON.stringify(from)} exactly once`);
    def = def.replace(from, to);
  }
  await sql.raw(def).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await edit(db, 'up');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await edit(db, 'down');
}
