import type { AppContext } from '../context';

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

const byContext = new WeakMap<AppContext, JobRuns>();

export function jobRunsOf(ctx: AppContext): JobRuns {
  let runs = byContext.get(ctx);
  if (!runs) {
    runs = new JobRuns();
    byContext.set(ctx, runs);
  }
  return runs;
}
