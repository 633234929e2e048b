import { statfs } from 'node:fs/promises';
import type { AppContext } from '../../context';
import { onePer } from '../../lib/one-per';
import type { Unavailable, UnavailableReason } from '../../lib/db-errors';

export interface RecordedFailure {
  reason: UnavailableReason;
  code: string;
  /** when it last happened (ISO) */
  at: string;
}

type Listener = (failure: Unavailable) => void;

/**
 * The "unavailable" failures this context answered 503 for (lib/db-errors.ts): the last one per
 * reason for /api/health, and each one for the metrics. Per context, like the job runs, so apps
 * built side by side (tests) stay apart.
 */
export class Failures {
  readonly last = new Map<UnavailableReason, { code: string; at: number }>();
  private readonly listeners = new Set<Listener>();

  record(failure: Unavailable, now = Date.now()): void {
    this.last.set(failure.reason, { code: failure.code, at: now });
    for (const l of this.listeners) l(failure);
  }

  onRecord(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The newest failure of the reasons that a `select 1` does not notice (a full disk, memory, too
   * many connections) within the last holdMs: health stays 503 for that long after the last one.
   */
  recentBlind(holdMs: number, now = Date.now()): RecordedFailure | undefined {
    let newest: RecordedFailure | undefined;
    for (const reason of ['disk', 'resources'] as const) {
      const f = this.last.get(reason);
      if (f && now - f.at < holdMs && (!newest || f.at > Date.parse(newest.at))) newest = { reason, code: f.code, at: new Date(f.at).toISOString() };
    }
    return newest;
  }
}

export const failuresOf = onePer<AppContext, Failures>(() => new Failures());

export interface DiskSpace {
  free_bytes: number;
  floor_bytes: number;
}

/**
 * Free space where PGlite writes (DATA_DIR), against the configured floor; undefined with
 * PostgreSQL (its disk is the database server's, seen through its errors) or when it cannot be read.
 */
export async function dataDirSpace(ctx: AppContext): Promise<DiskSpace | undefined> {
  if (ctx.dbKind !== 'pglite') return undefined;
  try {
    const s = await statfs(ctx.config.dataDir);
    return { free_bytes: s.bavail * s.bsize, floor_bytes: ctx.config.health.diskFloorBytes };
  } catch {
    return undefined;
  }
}
