import type { Job } from '../../jobs/scheduler';
import { drainTeam } from './service';

/**
 * Crash safety for the team drainer: sign-ups and stakes kick a drain after commit in their own
 * process; this folds whatever a crashed or busy process left pending. Idempotent (each delta is
 * deleted in the transaction that applies it), one drain at a time (advisory lock in team_drain).
 */
export const teamDrainJob: Job = { name: 'team:drain', intervalMs: 5_000, run: (ctx) => drainTeam(ctx.db) };
