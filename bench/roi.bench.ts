import { sql } from 'kysely';
import { runRoi } from '../apps/server/src/modules/income/roi';
import * as ledger from '../apps/server/src/modules/ledger/service';
import { benchContext, line, timed } from './lib';

/**
 * The ROI job over N active stakes (1,000 users × N/1,000 stakes), each one day behind: one run
 * credits N stake-days, each a balanced ledger entry. Baseline: a bare INSERT of N rows of the
 * same width into a scratch table, the least any per-credit write could cost.
 */
export async function roiBench(stakes: number): Promise<void> {
  const { ctx, drop } = await benchContext();
  try {
    const users = 1000;
    await sql`insert into users (name, email, username, email_verified_at)
      select 'Bench ' || g, 'bench' || g || '@example.test', upper(substr(md5(g::text), 1, 9)), now() from generate_series(1, ${users}) g`.execute(ctx.db);
    await sql`insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
      select u.id, 100000000, 0.5, 200, date '2026-01-01' from users u, generate_series(1, ${Math.ceil(stakes / users)}) g limit ${stakes}`.execute(ctx.db);
    await sql`analyze`.execute(ctx.db);
    const run = await timed(() => runRoi(ctx, '2026-01-02'));
    const again = await timed(() => runRoi(ctx, '2026-01-02'));
    await sql`create temporary table scratch (k text primary key, user_id bigint, amount bigint)`.execute(ctx.db);
    const base = await timed(() => sql`insert into scratch select 'k' || g, g % 1000, 500000 from generate_series(1, ${stakes}) g`.execute(ctx.db));
    const ok = (await ledger.verify(ctx.db)).ok;
    line(`baseline: bare INSERT of ${stakes.toLocaleString()} rows`, `${base.ms.toFixed(0)} ms`);
    line(
      `ROI job: ${stakes.toLocaleString()} active stakes, one day each`,
      `${run.ms.toFixed(0)} ms (${run.value.credits.toLocaleString()} credits, ${Math.round(run.value.credits / (run.ms / 1000)).toLocaleString()} credits/s)`,
    );
    line('ROI job again for the same date (idempotent)', `${again.ms.toFixed(0)} ms (${again.value.credits} credits), ledger verify ${ok ? 'OK' : 'BROKEN'}`);
  } finally {
    await drop();
  }
}
