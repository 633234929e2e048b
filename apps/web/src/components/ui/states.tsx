import { formatClockTime, formatDateTime } from '@app/core/format';
import type { UseQueryResult } from '@tanstack/react-query';
import { AlertTriangle, Inbox, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api-client';
import { Spinner } from './spinner';

export function LoadingState({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="flex justify-center py-8">
      <Spinner label={text} />
    </div>
  );
}

export function EmptyState({ text }: { text: string }) {
  return (
    <div className="flex flex-col items-center gap-2 py-8 text-center text-sm text-slate-400">
      <Inbox className="h-8 w-8 text-slate-600" aria-hidden />
      <p>{text}</p>
    </div>
  );
}

/** Asks a failed read again (issue 32: after one quick retry, the error stays with this button). */
export function RetryButton({ onRetry, busy, className }: { onRetry: () => void; busy?: boolean; className?: string }) {
  return (
    <button
      type="button"
      onClick={onRetry}
      disabled={busy}
      className={`inline-flex min-h-11 items-center justify-center gap-1.5 rounded-xl border border-white/15 px-4 text-sm font-semibold text-white hover:bg-white/5 disabled:opacity-50 ${className ?? ''}`}
    >
      <RotateCw className={`h-4 w-4${busy ? ' animate-spin' : ''}`} aria-hidden /> Retry
    </button>
  );
}

export function ErrorState({ text, onRetry, busy }: { text: string; onRetry?: () => void; busy?: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-2 py-8 text-center text-sm text-red-400">
      <AlertTriangle className="h-8 w-8" aria-hidden />
      <p>{text}</p>
      {onRetry ? <RetryButton onRetry={onRetry} busy={busy} className="mt-2" /> : null}
    </div>
  );
}

/**
 * A refresh that failed while the last good data stays on screen: the error and Retry, in one line
 * above it (issue 32: keep the data, say it could not be refreshed, offer to ask again).
 */
export function RefreshError({ query, errorText }: { query: UseQueryResult<unknown>; errorText: string }) {
  if (!query.isRefetchError) return null;
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-red-500/10 px-3 py-1.5 text-sm text-red-300 ring-1 ring-red-500/30"
    >
      <span className="flex items-center gap-2">
        <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden />
        {errorMessage(query.error, errorText)}
      </span>
      <RetryButton onRetry={() => void query.refetch()} busy={query.isFetching} className="border-red-400/30" />
    </div>
  );
}

/**
 * When the data on screen was loaded: a line of fixed height, kept empty until there is data, so it
 * never moves what is below it (CLS). Offline, or after a failed refresh, it is what tells the
 * user how old the balance is.
 */
export function LastUpdated({ at, className }: { at: number; className?: string }) {
  const today = at > 0 && new Date(at).toDateString() === new Date().toDateString();
  const when = today ? formatClockTime(at) : formatDateTime(at);
  return (
    <p className={`h-5 shrink-0 whitespace-nowrap text-xs leading-5 text-slate-400 ${className ?? ''}`} data-testid="last-updated">
      {at > 0 ? `Last updated ${when}` : null}
    </p>
  );
}

/** A query's answer: the loading state, the error (the server's message, else `errorText`) with Retry, or `children` over its data. */
export function QueryState<T>({ query, errorText, children }: { query: UseQueryResult<T>; errorText: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <LoadingState />;
  if (query.isError && query.data === undefined)
    return <ErrorState text={errorMessage(query.error, errorText)} onRetry={() => void query.refetch()} busy={query.isFetching} />;
  return (
    <>
      <RefreshError query={query} errorText={errorText} />
      {children(query.data as T)}
    </>
  );
}
