import { formatClockTime, formatDayClockTime } from '@app/core/format';
import type { UseQueryResult } from '@tanstack/react-query';
import { AlertTriangle, WifiOff } from 'lucide-react';
import { errorMessage } from '../lib/api-client';
import { figureState, worstFigure, type FigureState } from '../lib/figure-state';
import { useOnline } from '../lib/use-online';
import { RetryButton } from './ui/states';

/**
 * The figures a screen needs, read together (issue 47): the screen's state (lib/figure-state.ts),
 * Retry for the reads that have nothing to show, and the time of the oldest figure shown.
 */
export function useFigures(...queries: UseQueryResult<unknown>[]) {
  const online = useOnline();
  const states = queries.map((q) => figureState(q, online));
  const state = worstFigure(states);
  const missing = queries.filter((_, i) => states[i] === 'failed' || states[i] === 'offline');
  const shown = queries.filter((q) => q.data !== undefined);
  return {
    state,
    online,
    /** the first failed read's error, for its message */
    error: missing.find((q) => q.isError)?.error,
    retry: () => {
      for (const q of missing.length ? missing : queries) void q.refetch();
    },
    busy: missing.some((q) => q.isFetching),
    /** when the oldest figure on screen was read (0: none) */
    at: shown.length ? Math.min(...shown.map((q) => q.dataUpdatedAt)) : 0,
  };
}

/** "7:05 AM" today, else "Dec 5, 7:05 AM". */
export function shortTime(at: number, now = Date.now()): string {
  return new Date(at).toDateString() === new Date(now).toDateString() ? formatClockTime(at) : formatDayClockTime(at);
}

/** " (as of 7:05 AM)" after a figure that is not a fresh answer; nothing after a fresh one. */
export function asOf(state: FigureState, at: number): string {
  return state === 'stale' && at > 0 ? ` (as of ${shortTime(at)})` : '';
}

/**
 * A figure a screen could not read, in place of the figure and of any form that needs it (issue
 * 47: the withdrawal page showed "Available: 0.00 USDT" with the form open when the wallet read
 * failed). Offline with nothing kept on this device it says so; the read runs again by itself when
 * the network comes back, and Retry asks at once.
 */
export function LoadError({
  title,
  what,
  state,
  error,
  onRetry,
  busy,
}: {
  /** the screen's words for the failed read (the spec's: 'Failed to fetch wallet information') */
  title: string;
  /** what is missing, as a subject: "Your balance" */
  what: string;
  state: 'failed' | 'offline';
  error?: unknown;
  onRetry: () => void;
  busy?: boolean;
}) {
  const offline = state === 'offline';
  const Icon = offline ? WifiOff : AlertTriangle;
  const server = errorMessage(error, '');
  const detail = offline
    ? `${what} has not been loaded on this device yet. It loads by itself when you are back online.`
    : `${server && server !== title ? `${server}. ` : ''}${what} is not shown until it can be read.`;
  return (
    <div role="alert" data-testid="load-error" className="card flex flex-col items-center gap-2 py-8 text-center">
      <Icon className={`h-8 w-8 ${offline ? 'text-amber-300' : 'text-red-400'}`} aria-hidden />
      <p className={`font-semibold ${offline ? 'text-white' : 'text-red-300'}`}>{offline ? 'Not available offline' : title}</p>
      <p className="max-w-sm text-pretty text-sm text-slate-400">{detail}</p>
      <RetryButton onRetry={onRetry} busy={busy} className="mt-2" />
    </div>
  );
}

/** Why a money form is closed while its figure is shown but not fresh. */
export function StaleFormNote({ online, checking }: { online: boolean; checking: boolean }) {
  return (
    <p className="text-center text-sm text-amber-300" data-testid="stale-form-note">
      {!online
        ? 'You are offline. The form opens when you are back online.'
        : checking
          ? 'Checking the latest figures…'
          : 'The latest figures could not be loaded. Retry to continue.'}
    </p>
  );
}
