import { sql } from 'kysely';
import type { DB } from '../apps/server/src/db/types';
import { runRoi } from '../apps/server/src/modules/income/roi';
import { useLegacyFunctions } from './legacy';
import { benchContext, ON_PGLITE, timed } from './lib';
import { seedRoi } from './roi.bench';

/**
 * ROI experiments, not part of `npm run bench`: the bench's ROI job (same seed, chunk 10,000, two
 * parts) with the chunk function or its tables altered in the bench's own throw-away schema, run in
 * turn with the function as migrated. Runs on one VM spread by ±15 % over minutes, so a change is
 * only worth making when its alternating runs separate by more than that.
 *
 *   BENCH_ONLY is ignored; N=1000000 VARIANTS=base,old,base,old npx tsx bench/roi-variants.ts
 */
type Variant = (db: DB) => Promise<void>;

const VARIANTS: Record<string, Variant> = {
  base: async () => {},
  // The entries' user index as it was before migration 0137, (user_id, created_at desc), narrower.
  'old-user-index': async (db) => {
    await sql`drop index ledger_entries_user_kind_idx`.execute(db);
    await sql`create index ledger_entries_user_id_idx on ledger_entries (user_id, created_at desc)`.execute(db);
  },
  // The ROI list's index without created_at (newest first by entry id alone).
  'narrow-user-index': async (db) => {
    await sql`drop index ledger_entries_user_kind_idx`.execute(db);
    await sql`create index ledger_entries_user_kind_id_idx on ledger_entries (user_id, kind, id desc)`.execute(db);
  },
  // The transfer and ROI functions as they were before migration 0180 (bench/legacy.ts): one entry
  // per stake-day, chunks by stake id.
  old: (db) => useLegacyFunctions(db, 'roi'),
};

async function once(name: string, stakes: number): Promise<void> {
  const variant = VARIANTS[name];
  if (!variant) throw new Error(`unknown variant ${name}; one of ${Object.keys(VARIANTS).join(', ')}`);
  const { ctx, drop } = await benchContext();
  try {
    const db = ctx.db;
    await seedRoi(db, stakes, () => variant(db));
    const run = await timed(() => runRoi(ctx, '2026-01-02', { chunk: 10_000, parts: 2 }));
    const { n } = (await sql<{ n: string }>`select count(*) as n from ledger_entries`.execute(db)).rows[0]!;
    console.log(`${name.padEnd(18)} ${(run.ms / 1000).toFixed(2)} s, ${run.value.credits.toLocaleString()} credits, ${Number(n).toLocaleString()} entries`);
  } finally {
    await drop();
  }
}

if (ON_PGLITE) throw new Error('the ROI variants run on PostgreSQL only (two parts)');
const stakes = Number(process.env.N ?? 1_000_000);
for (const name of (process.env.VARIANTS ?? 'base,old,base,old').split(',')) await once(name, stakes);
process.exit(0);
