import { sql } from 'kysely';
import type { DB } from '../apps/server/src/db/types';
import { ROI_CHUNK, ROI_PARTS, runRoi } from '../apps/server/src/modules/income/roi';
import { benchPaths, useLegacyFunctions, type BenchPath } from './legacy';
import { benchContext, line, ON_PGLITE, ratio, timed, verifyLine } from './lib';

/**
 * The sizes to run: ROI_SIZES=10000,100000,1000000; else BENCH_STAKES when given; else 10k, 100k
 * and 1M on PostgreSQL (10k and 100k on PGlite). ROI_CHUNK=<n> overrides the chunk size, ROI_PARTS=<n>
 * the parts run side by side (PostgreSQL).
 */
function sizes(stakes: number): number[] {
  if (process.env.ROI_SIZES) return process.env.ROI_SIZES.split(',').map(Number);
  if (process.env.BENCH_STAKES) return [stakes];
  return ON_PGLITE ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
}

/** Runs fn while sampling this process's RSS every 20 ms; the peak seen (MB). */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

export async function roiBench(stakes: number): Promise<void> {
  const chunk = process.env.ROI_CHUNK ? Number(process.env.ROI_CHUNK) : ROI_CHUNK[ON_PGLITE ? 'pglite' : 'postgres'];
  const parts = process.env.ROI_PARTS ? Number(process.env.ROI_PARTS) : ROI_PARTS[ON_PGLITE ? 'pglite' : 'postgres'];
  // BENCH_PATHS=new,old runs the ROI as it was before migration 0180 too, after each size's new run.
  for (const n of sizes(stakes)) for (const p of benchPaths()) await roiOnce(n, chunk, parts, p);
}

/**
 * N active stakes, one day behind on 2026-01-02: N/10 users with 10 stakes each, interleaved so a
 * chunk touches as many users' accounts as it has stakes. Optional DDL (an experiment's change)
 * runs before the vacuum and checkpoint, so the timed run starts from the same state either way.
 */
export async function seedRoi(db: DB, stakes: number, before?: () => Promise<void>): Promise<void> {
  const users = Math.max(1, Math.ceil(stakes / 10));
  await sql`insert into users (name, email, username, email_verified_at)
    select 'Bench ' || g, 'bench' || g || '@example.test', 'BN' || g, now() from generate_series(1, ${users}) g`.execute(db);
  await sql`insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
    select u.id, 100000000, 0.5, 200, date '2026-01-01' from generate_series(1, 10) g, users u order by g, u.id limit ${stakes}`.execute(db);
  await before?.();
  // A table written days ago has been vacuumed (autovacuum) and checkpointed; one seeded a
  // second ago has neither, and the timed run would pay for the seed: the checkpointer
  // flushing its pages and the first reader setting every row's hint bits.
  await sql`vacuum analyze`.execute(db);
  if (!ON_PGLITE) await sql`checkpoint`.execute(db).catch(() => console.log('  (no checkpoint after the seed: it needs a superuser or pg_checkpoint)'));
}

/**
 * The ROI job over N active stakes (N/10 users, 10 stakes each, interleaved so a chunk touches as
 * many users' accounts as it has stakes), each one day behind: one run credits N stake-days, each
 * a balanced ledger entry with two postings (the ROI history is read from the entries, migration
 * 0137). Baseline: a bare INSERT of N
 * rows of the same width into a scratch table, the least any per-credit write could cost.
 */
async function roiOnce(stakes: number, chunk: number, parts: number, path: BenchPath): Promise<void> {
  const { ctx, drop } = await benchContext();
  try {
    const users = Math.max(1, Math.ceil(stakes / 10));
    const seeded = await timed(() => seedRoi(ctx.db, stakes, path === 'old' ? () => useLegacyFunctions(ctx.db, 'roi') : undefined));
    const entries = async () => Number((await sql<{ n: string }>`select count(*) as n from ledger_entries`.execute(ctx.db)).rows[0]!.n);
    const run = await withPeakRss(() => timed(() => runRoi(ctx, '2026-01-02', { chunk, parts })));
    const before = await entries();
    const again = await timed(() => runRoi(ctx, '2026-01-02', { chunk, parts }));
    const rerunRows = (await entries()) - before;
    await sql`create temporary table scratch (k text primary key, user_id bigint, amount bigint)`.execute(ctx.db);
    const base = await timed(() => sql`insert into scratch select 'k' || g, g % 1000, 500000 from generate_series(1, ${stakes}) g`.execute(ctx.db));
    const ms = run.value.ms;
    const credits = run.value.value.credits;
    console.log(
      `ROI${path === 'old' ? ' (old path: before migration 0180, one entry per stake-day)' : ''}, ${stakes.toLocaleString()} stakes (${users.toLocaleString()} users, chunk ${chunk}, ${parts} part${parts === 1 ? '' : 's'}, seeded in ${(seeded.ms / 1000).toFixed(1)} s)`,
    );
    line(`  baseline: bare INSERT of ${stakes.toLocaleString()} rows`, `${base.ms.toFixed(0)} ms`);
    line(
      `  ROI job: ${stakes.toLocaleString()} active stakes, one day each`,
      `${(ms / 1000).toFixed(2)} s (${credits.toLocaleString()} credits, ${Math.round(credits / (ms / 1000)).toLocaleString()} credits/s, ${ratio(ms, base.ms).replace('×', '× the baseline')})`,
    );
    line('  peak RSS of this process during the run', `${run.peakMb.toFixed(0)} MB`);
    line('  ROI job again for the same date (idempotent)', `${again.ms.toFixed(0)} ms (${again.value.credits} credits, ${rerunRows} rows written)`);
    const [{ entries: e, postings }] = (
      await sql<{
        entries: string;
        postings: string;
      }>`select (select count(*) from ledger_entries)::text as entries, (select count(*) from ledger_postings)::text as postings`.execute(ctx.db)
    ).rows as [{ entries: string; postings: string }];
    line('  rows written', `${Number(e).toLocaleString()} entries, ${Number(postings).toLocaleString()} postings`);
    // The old path writes no stake on its postings, which this verify reads: its figure is its time only.
    line(`  ledger:verify${path === 'old' ? " (old rows, today's verify)" : ''}`, await verifyLine(ctx.db));
  } finally {
    await drop();
  }
}
