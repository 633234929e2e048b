import { useEffect } from 'react';
import { toast } from './toast';
import { errorMessage, toldGlobally } from './api-client';

/**
 * Toasts each failure of a query (the server's message, else `fallback`), beside the error the page
 * shows in place; not an outage the app-wide notice already tells (issue 47: two toasts, one over
 * the other's Retry).
 */
export function useErrorToast(query: { isError: boolean; error: unknown }, fallback: string): void {
  const { isError, error } = query;
  useEffect(() => {
    if (isError && !toldGlobally(error)) toast.error(errorMessage(error, fallback));
  }, [isError, error, fallback]);
}
