import { onlineManager, QueryClient } from '@tanstack/react-query';
import { ApiError, setOutageRetry } from './api-client';
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
      // Back online, every read on screen asks again by itself (issue 47: nothing reloaded until Retry).
      refetchOnReconnect: true,
    },
  },
});

// TanStack Query takes itself to be online until an 'offline' event: the app opened offline sent
// every read, failed it, and showed 'Error loading user data' under the offline banner, and the
// 'online' event changed nothing, so nothing reloaded. From the browser's own word at start, reads
// wait while offline and run when the network comes back.
if (typeof window !== 'undefined') onlineManager.setOnline(navigator.onLine);

// The last answers of the reads a screen shows figures from are kept on this device and come back
// when the network cannot answer (query-persistence.ts).
persistQueries(queryClient);

// Retry on the outage notice (api-client.ts): every screen on view reads again.
setOutageRetry(() => void queryClient.refetchQueries({ type: 'active' }));
