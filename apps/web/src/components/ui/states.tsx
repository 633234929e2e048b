import type { UseQueryResult } from '@tanstack/react-query';
import { AlertTriangle, Inbox } from 'lucide-react';
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

export function ErrorState({ text }: { text: string }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-2 py-8 text-center text-sm text-red-400">
      <AlertTriangle className="h-8 w-8" aria-hidden />
      <p>{text}</p>
    </div>
  );
}

/** A query's answer: the loading state, the error (the server's message, else `errorText`), or `children` over its data. */
export function QueryState<T>({ query, errorText, children }: { query: UseQueryResult<T>; errorText: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState text={errorMessage(query.error, errorText)} />;
  return children(query.data);
}
