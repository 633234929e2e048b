import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** The general setup: default queries retry 3 times (spec section 9), but never on a 4xx answer. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 3,
      staleTime: 15_000,
    },
  },
});
