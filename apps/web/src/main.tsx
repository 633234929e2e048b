import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@app/core/constants';
import { router } from './app/router';
import { setApiNavigator } from './lib/api-client';
import { queryClient } from './lib/query-client';
import './index.css';

setApiNavigator((to) => void router.navigate(to, { replace: true }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster position="top-center" duration={TOAST_DURATION_MS} visibleToasts={TOAST_VISIBLE} theme="dark" richColors closeButton />
    </QueryClientProvider>
  </StrictMode>,
);
