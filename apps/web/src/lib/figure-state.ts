/**
 * What a screen may do with a figure it read (a balance, a fee, a limit: issue 47). A figure that
 * could not be read is never shown as 0.00, and a money form opens only on a figure the server
 * gave in this run of the app while the browser is online.
 *
 * - `loading`: asked, no answer yet.
 * - `failed`: the read failed and there is nothing to show: the error with Retry, no form.
 * - `offline`: offline and nothing kept on this device: says so, with Retry; no form.
 * - `stale`: a figure is there but is not a fresh answer: the copy kept on this device, one shown
 *   while offline, or the last answer beside a refresh that failed. Shown with its time; money
 *   forms stay closed.
 * - `live`: a fresh answer, online: the form may open.
 */
export type FigureState = 'loading' | 'failed' | 'offline' | 'stale' | 'live';

/** The parts of a TanStack Query result this needs (a `UseQueryResult` fits). */
export interface FigureQuery {
  data: unknown;
  status: 'pending' | 'error' | 'success';
  fetchStatus: 'fetching' | 'paused' | 'idle';
  /** false for a copy restored from this device: no answer came in this run of the app */
  isFetched: boolean;
}

export function figureState(q: FigureQuery, online: boolean): FigureState {
  if (q.data === undefined) {
    if (q.status === 'error') return 'failed';
    if (!online || q.fetchStatus === 'paused') return 'offline';
    return 'loading';
  }
  return online && q.status === 'success' && q.isFetched ? 'live' : 'stale';
}

const ORDER: readonly FigureState[] = ['failed', 'offline', 'loading', 'stale', 'live'];

/** The state of a screen that needs several figures: the least usable of them. */
export function worstFigure(states: readonly FigureState[]): FigureState {
  let worst: FigureState = 'live';
  for (const s of states) if (ORDER.indexOf(s) < ORDER.indexOf(worst)) worst = s;
  return worst;
}

/** Whether the figure can be shown (with its time when it is not `live`). */
export const hasFigure = (s: FigureState): boolean => s === 'live' || s === 'stale';
