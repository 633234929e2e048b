import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@app/core/constants';
import { setApiNavigator } from '../lib/api-client';
import { queryClient } from '../lib/query-client';

/**
 * Data fetching and toasts for every screen but the landing page. Loaded as a route of its own, so
 * a visitor's first paint of / does not wait for TanStack Query, sonner or the API client.
 */
export function AppProviders() {
  const navigate = useNavigate();
  // Global redirects of the API client (401, 503) stay inside the SPA.
  useEffect(() => setApiNavigator((to) => void navigate(to, { replace: true })), [navigate]);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
      <Toaster position="top-center" duration={TOAST_DURATION_MS} visibleToasts={TOAST_VISIBLE} theme="dark" richColors closeButton />
    </QueryClientProvider>
  );
}
