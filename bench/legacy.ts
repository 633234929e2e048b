import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { DB } from '../apps/server/src/db/types';

/**
 * The old path, for a comparison in the same run: the transfer and ROI functions as migrations
 * 0100/0103 and 0132/0137 left them, before the posting rules moved into app_post_many (migration
 * 0180), put into a bench's own throw-away schema. Their text is in bench/legacy/*.sql (dumped
 * with pg_get_functiondef before 0180). They write balances themselves, so the balance guard is
 * switched off in that schema; the old ROI chunk walks stakes by id, so its index comes back.
 *
 *   BENCH_PATHS=new,old BENCH_ONLY=roi ROI_SIZES=100000 npm run bench
 */
export type BenchPath = 'new' | 'old';

export function benchPaths(): BenchPath[] {
  const paths = (process.env.BENCH_PATHS ?? 'new').split(',');
  for (const p of paths) if (p !== 'new' && p !== 'old') throw new Error(`BENCH_PATHS: ${p} is neither new nor old`);
  return paths as BenchPath[];
}

const legacySql = (name: string) => readFileSync(path.join(import.meta.dirname, 'legacy', `${name}.sql`), 'utf8');

export async function useLegacyFunctions(db: DB, what: 'transfer' | 'roi'): Promise<void> {
  await sql`alter table ledger_accounts disable trigger ledger_accounts_balance_writer`.execute(db);
  if (what === 'transfer') {
    await sql.raw(legacySql('app_transfer')).execute(db);
    await sql.raw(legacySql('app_transfer_as')).execute(db);
  } else {
    await sql.raw(legacySql('app_roi_chunk_part')).execute(db);
    await sql`create index if not exists stakes_active_idx on stakes (id) where status = 'active'`.execute(db);
  }
}
