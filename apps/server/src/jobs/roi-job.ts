import type { AppContext } from '../context';
import { runRoi } from '../modules/income/roi';
import { utcDay } from '@app/core/days';
import type { Job } from './scheduler';

const RUN_AFTER_MINUTES = 5; // 00:05 UTC

/**
 * The daily ROI accrual: checked every minute; after 00:05 UTC it runs for today unless a run
 * for today is recorded in job_runs. A server that was down catches up on its first check,
 * and runRoi itself credits every missed day once.
 */
export async function runDailyRoi(ctx: AppContext, now = new Date()): Promise<{ ran: boolean }> {
  if (now.getUTCHours() * 60 + now.getUTCMinutes() < RUN_AFTER_MINUTES) return { ran: false };
  const day = utcDay(now);
  const done = await ctx.db.selectFrom('job_runs').select('finished_at').where('name', '=', 'roi').where('period', '=', day).executeTakeFirst();
  if (done?.finished_at) return { ran: false };
  await ctx.db
    .insertInto('job_runs')
    .values({ name: 'roi', period: day })
    .onConflict((oc) => oc.columns(['name', 'period']).doNothing())
    .execute();
  const result = await runRoi(ctx, day);
  await ctx.db
    .updateTable('job_runs')
    .set({ finished_at: new Date(), result: JSON.stringify({ ...result, total: result.total.toString() }) })
    .where('name', '=', 'roi')
    .where('period', '=', day)
    .execute();
  return { ran: true };
}

export const roiJob: Job = { name: 'roi:daily', intervalMs: 60_000, run: (ctx) => runDailyRoi(ctx) };
