import type { AppContext } from '../context';
import { onePer } from '../lib/one-per';

export type JobOutcome = 'ok' | 'failed' | 'skipped';

export interface JobRun {
  /** when the tick started (ISO) */
  at: string;
  outcome: JobOutcome;
  durationMs: number;
}

type Listener = (job: string, run: JobRun) => void;

/**
 * What the scheduler's ticks did, per job: the last one for /api/health and each one for the
 * metrics. Kept per context rather than per process so apps built side by side (tests) stay apart.
 */
export class JobRuns {
  readonly last = new Map<string, JobRun>();
  private readonly listeners = new Set<Listener>();

  record(job: string, run: JobRun): void {
    this.last.set(job, run);
    for (const l of this.listeners) l(job, run);
  }

  onRun(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const jobRunsOf = onePer<AppContext, JobRuns>(() => new JobRuns());
