import { sql } from 'kysely';
import { NO_MIGRATIONS } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/app';
import { migratorFor } from './migrate';

type Handle = Awaited<ReturnType<typeof createTestDb>>;

/** Everything the migrations define in the current schema, as comparable text. */
async function snapshot(h: Handle) {
  const q = async (query: ReturnType<typeof sql>) => (await query.execute(h.db)).rows.map((r) => JSON.stringify(r));
  return {
    columns: await q(sql`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = current_schema() and table_name not like 'kysely_migration%' order by 1, 2`),
    indexes: await q(sql`select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename not like 'kysely_migration%' order by 1`),
    constraints: await q(sql`select conname, pg_get_constraintdef(oid) as def from pg_constraint
      where connamespace = current_schema()::regnamespace and conrelid::regclass::text not like '%kysely_migration%' order by 1, 2`),
    functions: await q(sql`select proname, pg_get_function_identity_arguments(oid) as args, md5(pg_get_functiondef(oid)) as body from pg_proc
      where pronamespace = current_schema()::regnamespace order by 1, 2`),
    triggers: await q(sql`select tgname, tgrelid::regclass::text as tbl from pg_trigger
      where not tgisinternal and tgrelid in (select oid from pg_class where relnamespace = current_schema()::regnamespace) order by 1, 2`),
    views: await q(sql`select table_name, md5(view_definition) as def from information_schema.views where table_schema = current_schema() order by 1`),
    types: await q(sql`select typname from pg_type where typnamespace = current_schema()::regnamespace and typtype in ('e', 'd') order by 1`),
    sequences: await q(sql`select sequence_name from information_schema.sequences where sequence_schema = current_schema() order by 1`),
  };
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** What `now` has that `then` lacks, and the reverse, by kind (empty kinds left out). */
function difference(now: Snapshot, then: Snapshot): Record<string, { extra: string[]; missing: string[] }> {
  const out: Record<string, { extra: string[]; missing: string[] }> = {};
  for (const k of Object.keys(now) as (keyof Snapshot)[]) {
    const extra = now[k].filter((x) => !then[k].includes(x));
    const missing = then[k].filter((x) => !now[k].includes(x));
    if (extra.length || missing.length) out[k] = { extra, missing };
  }
  return out;
}

describe('every migration can be undone', () => {
  let h: Handle;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());

  it('each down() restores the schema its migration found, and up again rebuilds the same schema', async () => {
    const migrator = migratorFor(h.db, h.schema);
    const latest = await snapshot(h);
    expect(latest.columns.length).toBeGreaterThan(50);

    const all = await migrator.migrateTo(NO_MIGRATIONS);
    expect(all.error).toBeUndefined();
    const nothing = { columns: [], indexes: [], constraints: [], functions: [], triggers: [], views: [], types: [], sequences: [] };
    expect(await snapshot(h)).toEqual(nothing);

    // Up one at a time, keeping the schema each migration leaves...
    const names = (await migrator.getMigrations()).map((m) => m.name);
    const before: Snapshot[] = [];
    for (const name of names) {
      before.push(await snapshot(h));
      const { error, results } = await migrator.migrateUp();
      expect({ name: results?.[0]?.migrationName, error: error ? String(error) : undefined, status: results?.[0]?.status }).toEqual({
        name,
        error: undefined,
        status: 'Success',
      });
    }
    expect(await snapshot(h)).toEqual(latest);

    // ...then down one at a time: undoing a migration must give back exactly the schema it found
    // (a down() that forgets an index would otherwise hide behind an earlier one dropping its table).
    for (let i = names.length - 1; i >= 0; i--) {
      const { error, results } = await migrator.migrateDown();
      expect({ name: results?.[0]?.migrationName, error: error ? String(error) : undefined }).toEqual({ name: names[i], error: undefined });
      expect({ after: `down() of ${names[i]}`, ...difference(await snapshot(h), before[i]!) }).toEqual({ after: `down() of ${names[i]}` });
    }

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await snapshot(h)).toEqual(latest);
  }, 300_000);
});
