import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RootRoute, RouteFallback } from './root-route';
import { AdminRoute, GuestOnlyRoute, ProtectedRoute } from './guards';
import { SignedInLayout } from './layouts/signed-in-layout';

type PageModule = { default: React.ComponentType };
/** Each page is its own chunk, so the landing page loads only what it shows. */
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

const appRoutes: RouteObject[] = [
  { path: '/', ...page(() => import('../features/landing/pages/landing-page')) },
  { path: '/privacy-policy', ...page(() => import('../features/legal/pages/privacy-policy-page')) },
  { path: '/terms-conditions', ...page(() => import('../features/legal/pages/terms-page')) },
  { path: '/referral', ...page(() => import('../features/auth/pages/referral-page')) },
  { path: '/verify-otp', ...page(() => import('../features/auth/pages/verify-otp-page')) },
  { path: '/maintenance', ...page(() => import('../features/maintenance/pages/maintenance-page')) },
  {
    element: <GuestOnlyRoute />,
    children: [
      { path: '/signup', ...page(() => import('../features/auth/pages/signup-page')) },
      { path: '/login', ...page(() => import('../features/auth/pages/login-page')) },
      { path: '/forgot-password', ...page(() => import('../features/auth/pages/forgot-password-page')) },
      { path: '/reset-password', ...page(() => import('../features/auth/pages/reset-password-page')) },
    ],
  },
  {
    element: <ProtectedRoute />,
    children: [
      {
        element: <SignedInLayout />,
        children: [
          { path: '/dashboard', ...page(() => import('../features/dashboard/pages/dashboard-page')) },
          { path: '/income', ...page(() => import('../features/income/pages/income-page')) },
          { path: '/transaction', ...page(() => import('../features/transactions/pages/transaction-page')) },
          { path: '/wallet', ...page(() => import('../features/wallet/pages/wallet-page')) },
          { path: '/setting', ...page(() => import('../features/settings/pages/settings-page')) },
          { path: '/settings', ...page(() => import('../features/settings/pages/settings-page')) },
          { path: '/profile', ...page(() => import('../features/profile/pages/profile-page')) },
          { path: '/security', ...page(() => import('../features/security/pages/security-page')) },
          { path: '/support', ...page(() => import('../features/support/pages/support-page')) },
          { path: '/disclaimer', ...page(() => import('../features/legal/pages/disclaimer-page')) },
          { path: '/transfer', ...page(() => import('../features/transfers/pages/transfer-page')) },
          { path: '/transfer-history', ...page(() => import('../features/transfers/pages/transfer-history-page')) },
          { path: '/team', ...page(() => import('../features/team/pages/team-page')) },
          { path: '/withdrawal', ...page(() => import('../features/withdrawals/pages/withdrawal-page')) },
          { path: '/deposit', ...page(() => import('../features/deposits/pages/deposit-page')) },
          { path: '/demo-deposit', ...page(() => import('../features/deposits/pages/demo-deposit-page')) },
          { path: '/cancel', ...page(() => import('../features/deposits/pages/cancel-page')) },
          { path: '/staking', ...page(() => import('../features/staking/pages/staking-page')) },
          { path: '/staking/history', ...page(() => import('../features/staking/pages/staking-history-page')) },
        ],
      },
    ],
  },
  {
    path: '/admin',
    element: <AdminRoute />,
    children: [
      {
        lazy: async () => ({ Component: (await import('../features/admin/components/admin-layout')).AdminLayout }),
        children: [
          { index: true, element: <Navigate to="/admin/dashboard" replace /> },
          { path: 'dashboard', ...page(() => import('../features/admin/pages/admin-dashboard-page')) },
          { path: 'users', ...page(() => import('../features/admin/pages/admin-users-page')) },
          { path: 'users/:id', ...page(() => import('../features/admin/pages/admin-user-detail-page')) },
          { path: 'withdrawals', ...page(() => import('../features/admin/pages/admin-withdrawals-page')) },
          { path: 'tickets', ...page(() => import('../features/admin/pages/admin-tickets-page')) },
          { path: 'payments', ...page(() => import('../features/admin/pages/admin-payments-page')) },
          { path: 'settings', ...page(() => import('../features/admin/pages/admin-settings-page')) },
          { path: 'operations', ...page(() => import('../features/admin/pages/admin-operations-page')) },
          { path: 'audit-log', ...page(() => import('../features/admin/pages/admin-audit-page')) },
          // Admins turn on their own two-factor authentication on the same screen (server.md section 9).
          { path: 'security', ...page(() => import('../features/security/pages/security-page')) },
          { path: '*', element: <Navigate to="/admin/dashboard" replace /> },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

/** One pathless root: a title per route, and a fallback while the first route's code loads. */
export const routes: RouteObject[] = [{ element: <RootRoute />, hydrateFallbackElement: <RouteFallback />, children: appRoutes }];

// No errorElement on purpose: a routing failure shows React Router's default screen,
// 'Unexpected Application Error!' with the status or message (spec section 2).
export const router = createBrowserRouter(routes);
