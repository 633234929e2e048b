import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useLayoutEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { notePage } from '../features/maintenance/return-path';
import { setApiNavigator } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { wantToaster } from './toaster-gate';

/**
 * Data fetching for every screen but the landing page, and the switch that mounts the toast region.
 * Loaded as a route of its own, so a visitor's first paint of / does not wait for TanStack Query,
 * sonner or the API client.
 */
export function AppProviders() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // The page a 503 may take the person away from: the maintenance page goes back there when it ends.
  useEffect(() => notePage(pathname + search), [pathname, search]);
  // Global redirects of the API client (401, 503) stay inside the SPA.
  useEffect(() => setApiNavigator((to, state) => void navigate(to, { replace: true, state })), [navigate]);
  // The toast region lives at the root (root-route.tsx), so it outlives a move to the landing page.
  useLayoutEffect(wantToaster, []);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
