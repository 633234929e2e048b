import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@app/core/constants';
import { setApiNavigator } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { router } from './router';

setApiNavigator((to) => void router.navigate(to, { replace: true }));

/**
 * Data fetching and toasts for every screen but the landing page. Loaded as a route of its own, so
 * a visitor's first paint of / does not wait for TanStack Query, sonner or the API client.
 */
export function AppProviders() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
      <Toaster position="top-center" duration={TOAST_DURATION_MS} visibleToasts={TOAST_VISIBLE} theme="dark" richColors closeButton />
    </QueryClientProvider>
  );
}
