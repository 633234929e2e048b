import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { withTx } from '../../db/tx';
import { AppError } from '../../lib/errors';
import * as ledger from '../ledger/service';
import './table';
import '../staking/table';

/**
 * Stakes per chunk (one transaction, one round trip), chosen by measurement (docs/benchmarks.md,
 * "ROI (set-based)"): on PostgreSQL 100,000 stakes took 33 s in chunks of 1,000, 17 s of 5,000 and
 * 10 s of 20,000; 10,000 keeps a chunk's locks on its users' income accounts to about a second.
 * PGlite slows down on large statements (10,000 stakes: 9.8 s in chunks of 500, 6.8 s of 2,000,
 * 29 s in one chunk of 10,000).
 */
export const ROI_CHUNK = { postgres: 10_000, pglite: 2_000 } as const;
/**
 * Parts run side by side on their own connections over disjoint users (migration 0132), so a run
 * uses two of PostgreSQL's cores instead of one. PGlite has one connection: one part.
 */
export const ROI_PARTS = { postgres: 2, pglite: 1 } as const;
const ROI_TX_ATTEMPTS = 10;
/**
 * A run that wrote at least this many credits has grown the ledger and rewritten the stakes by
 * more than autovacuum's 10 % threshold: their statistics are taken again at once (about 0.8 s
 * after 1,000,000 credits, 2.5 % of the run) rather than at autovacuum's next pass. Until then the
 * planner took a million new postings for a few hundred rows, and ledger:verify right after the
 * run took 7.6 s instead of 4 s (issue 51).
 */
export const ROI_ANALYZE_AFTER = 10_000;
// One ROI run at a time across processes, per part: each chunk takes advisory lock 7402001 + part on PostgreSQL.

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** True for a real calendar day written YYYY-MM-DD ('2025-02-30' is not one). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

export interface RoiResult {
  date: string;
  stakes: number;
  credits: number;
  total: bigint;
  completed: number;
}

/**
 * Credits ROI for every stake-day up to and including `date` not yet credited (server design,
 * section 4). A stake made on day S earns for S+1, S+2, …; each credit is amount × the stake's
 * own daily rate (rounded down exactly as percentOf), the last one trimmed to the cap, and is one
 * ledger entry keyed roi:<stake>:<day>. Stakes are taken in chunks, each one transaction and one
 * statement (ledger.creditRoiChunk) under a row lock and an advisory lock, so a run that races
 * another, or repeats, credits nothing twice. The cursor moves past a chunk only once that chunk
 * has committed: a chunk that fails and is retried (deadlock victim) is read again from the same
 * place, so no stake is skipped, and its rolled-back credits are written once by the retry.
 */
export async function runRoi(ctx: Pick<AppContext, 'db' | 'dbKind'>, date: string, opts: { chunk?: number; parts?: number } = {}): Promise<RoiResult> {
  if (!isDay(date)) throw new AppError('VALIDATION', `Invalid ROI date ${date} (expected YYYY-MM-DD)`);
  const result: RoiResult = { date, stakes: 0, credits: 0, total: 0n, completed: 0 };
  const limit = opts.chunk ?? ROI_CHUNK[ctx.dbKind];
  const parts = opts.parts ?? ROI_PARTS[ctx.dbKind];
  const runPart = async (part: number) => {
    let afterId = 0n;
    for (;;) {
      // A chunk holds many accounts at once, so it is the likely deadlock victim when stakes,
      // transfers and withdrawals run beside it; it is safe to run again, so give it more tries.
      const chunk = await withTx(
        ctx.db,
        (tx) => ledger.creditRoiChunk(tx, { afterId, date, limit, advisoryLock: ctx.dbKind === 'postgres', part, parts }),
        ROI_TX_ATTEMPTS,
      );
      if (chunk.lastId === null) return;
      afterId = chunk.lastId;
      result.stakes += chunk.stakes;
      result.credits += chunk.credits;
      result.total += chunk.total;
      result.completed += chunk.completed;
    }
  };
  // Every part runs to its end even when another fails (each chunk commits whole), then the
  // first failure is reported.
  const settled = await Promise.allSettled(Array.from({ length: parts }, (_, part) => runPart(part)));
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  if (result.credits >= ROI_ANALYZE_AFTER) await sql`analyze ledger_postings, ledger_entries, stakes, ledger_accounts, user_totals`.execute(ctx.db);
  return result;
}
