import { sql, type Kysely } from 'kysely';

/**
 * app_post_many chooses its plans by the size of the call (issue 31: transfers ran at 0.68× the
 * bare-SQL transfer on a quiet machine, under the 0.7× goal; a transfer took 800 µs against 530 µs
 * before 0180).
 *
 * Left to itself, the plan cache re-planned the function's statements on every call: a plan over
 * unnest() of a parameter is costed at 10 rows when generic and at the array's real size when
 * custom, so for a two-leg transfer the custom plan always looked cheaper and was made anew each
 * time (about 135 µs of the 800). The same cache could also settle on a small call's generic plan
 * for an ROI chunk of 100,000 legs. So a small call (≤ 32 legs: a transfer, one ledger.post) runs
 * the plans made once, a large one is planned for its own sizes, and the caller's setting is put
 * back before the function returns (an error rolls it back with the transaction).
 *
 * The change is two statements of the body, made here as an edit of the definition 0180 left
 * (the whole function, as it now is, reads in db/schema.sql); down() makes the reverse edit.
 */
const SIGNATURE = 'app_post_many(text[], text[], bigint[], text[], int[], bigint[], text[], bigint[], bigint[])';

const EDITS: [before: string, after: string][] = [
  [
    '      if v_n = 0 then return; end if;\n',
    "      if v_n = 0 then return; end if;\n      perform set_config('plan_cache_mode', case when v_legs <= 32 then 'force_generic_plan' else 'force_custom_plan' end, true);\n",
  ],
  ['      if v_ords is null then return; end if;\n', "      if v_ords is null then perform set_config('plan_cache_mode', v_plan, true); return; end if;\n"],
  ['      v_flag text;\n', "      v_flag text;\n      v_plan text := current_setting('plan_cache_mode');\n"],
  ['      for i in 1..cardinality(v_ords) loop\n', "      perform set_config('plan_cache_mode', v_plan, true);\n      for i in 1..cardinality(v_ords) loop\n"],
];

async function edit(db: Kysely<unknown>, direction: 'up' | 'down'): Promise<void> {
  const { rows } = await sql<{ def: string }>`select pg_get_functiondef(${SIGNATURE}::regprocedure) as def`.execute(db);
  let def = rows[0]!.def;
  for (const [before, after] of EDITS) {
    const [from, to] = direction === 'up' ? [before, after] : [after, before];
    // Each edit must find its text exactly once, or the function is not the one this migration knows.
    if (def.split(from).length !== 2) throw new Error(`0182: app_post_many does not hold ${JSON.stringify(from)} exactly once`);
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
