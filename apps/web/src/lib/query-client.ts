import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { persistQueries } from './query-persistence';

/**
 * The general setup. A failed read is tried once more, half a second later, and then shown as an
 * error with a Retry button (issue 32: three retries with back-off kept a spinner on screen for
 * 8–10 s first). Never retried on a 4xx answer: asking again gets the same answer.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 1,
      retryDelay: 500,
      staleTime: 15_000,
    },
  },
});

// The dashboard's and the wallet's last answers are kept on this device and come back when the
// network cannot answer (query-persistence.ts).
persistQueries(queryClient);
