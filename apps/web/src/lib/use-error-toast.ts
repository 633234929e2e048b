import { useEffect } from 'react';
import { toast } from 'sonner';
import { errorMessage } from './api-client';

/** Toasts each failure of a query (the server's message, else `fallback`), beside the error the page shows in place. */
export function useErrorToast(query: { isError: boolean; error: unknown }, fallback: string): void {
  const { isError, error } = query;
  useEffect(() => {
    if (isError) toast.error(errorMessage(error, fallback));
  }, [isError, error, fallback]);
}
