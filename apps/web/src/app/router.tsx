import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { RootRoute, RouteFallback } from './root-route';
import { AdminRoute, GuestOnlyRoute, ProtectedRoute } from './guards';

/*
 * Declarative routes (<Routes>) rather than createBrowserRouter: the data router costs about 19 KB
 * gzipped that a visitor's first paint of / would wait for, and no screen uses loaders or actions.
 * Each page is its own chunk (React.lazy), so the landing page loads only what it shows.
 */
type PageModule = { default: ComponentType };
const page = (load: () => Promise<PageModule>) => {
  const Page = lazy(load);
  return <Page />;
};
const named = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => {
  const Named = lazy(async (): Promise<PageModule> => ({ default: (await load())[name] }));
  return <Named />;
};

/**
 * A routing failure (a chunk that cannot load, a page that throws) shows the screen React Router's
 * data router showed by default: 'Unexpected Application Error!' with the message (spec section 2).
 */
class RouteErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div style={{ padding: '2rem', color: '#fff' }}>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: 'italic' }}>{error.message}</h3>
      </div>
    );
  }
}

export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<RouteFallback />}>
        <Routes>
          <Route element={<RootRoute />}>
            <Route path="/" element={page(() => import('../features/landing/pages/landing-page'))} />
            {/* Everything but the landing page runs inside the data and toast providers, loaded with the first such route. */}
            <Route element={named(() => import('./app-providers'), 'AppProviders')}>
              <Route path="/privacy-policy" element={page(() => import('../features/legal/pages/privacy-policy-page'))} />
              <Route path="/terms-conditions" element={page(() => import('../features/legal/pages/terms-page'))} />
              <Route path="/referral" element={page(() => import('../features/auth/pages/referral-page'))} />
              <Route path="/verify-otp" element={page(() => import('../features/auth/pages/verify-otp-page'))} />
              <Route path="/maintenance" element={page(() => import('../features/maintenance/pages/maintenance-page'))} />
              <Route element={<GuestOnlyRoute />}>
                <Route path="/signup" element={page(() => import('../features/auth/pages/signup-page'))} />
                <Route path="/login" element={page(() => import('../features/auth/pages/login-page'))} />
                <Route path="/forgot-password" element={page(() => import('../features/auth/pages/forgot-password-page'))} />
                <Route path="/reset-password" element={page(() => import('../features/auth/pages/reset-password-page'))} />
              </Route>
              <Route element={<ProtectedRoute />}>
                <Route element={named(() => import('./layouts/signed-in-layout'), 'SignedInLayout')}>
                  <Route path="/dashboard" element={page(() => import('../features/dashboard/pages/dashboard-page'))} />
                  <Route path="/income" element={page(() => import('../features/income/pages/income-page'))} />
                  <Route path="/transaction" element={page(() => import('../features/transactions/pages/transaction-page'))} />
                  <Route path="/wallet" element={page(() => import('../features/wallet/pages/wallet-page'))} />
                  <Route path="/setting" element={page(() => import('../features/settings/pages/settings-page'))} />
                  <Route path="/settings" element={page(() => import('../features/settings/pages/settings-page'))} />
                  <Route path="/profile" element={page(() => import('../features/profile/pages/profile-page'))} />
                  <Route path="/security" element={page(() => import('../features/security/pages/security-page'))} />
                  <Route path="/support" element={page(() => import('../features/support/pages/support-page'))} />
                  <Route path="/disclaimer" element={page(() => import('../features/legal/pages/disclaimer-page'))} />
                  <Route path="/transfer" element={page(() => import('../features/transfers/pages/transfer-page'))} />
                  <Route path="/transfer-history" element={page(() => import('../features/transfers/pages/transfer-history-page'))} />
                  <Route path="/team" element={page(() => import('../features/team/pages/team-page'))} />
                  <Route path="/withdrawal" element={page(() => import('../features/withdrawals/pages/withdrawal-page'))} />
                  <Route path="/deposit" element={page(() => import('../features/deposits/pages/deposit-page'))} />
                  <Route path="/demo-deposit" element={page(() => import('../features/deposits/pages/demo-deposit-page'))} />
                  <Route path="/cancel" element={page(() => import('../features/deposits/pages/cancel-page'))} />
                  <Route path="/staking" element={page(() => import('../features/staking/pages/staking-page'))} />
                  <Route path="/staking/history" element={page(() => import('../features/staking/pages/staking-history-page'))} />
                </Route>
              </Route>
              <Route path="/admin" element={<AdminRoute />}>
                <Route element={named(() => import('../features/admin/components/admin-layout'), 'AdminLayout')}>
                  <Route index element={<Navigate to="/admin/dashboard" replace />} />
                  <Route path="dashboard" element={page(() => import('../features/admin/pages/admin-dashboard-page'))} />
                  <Route path="users" element={page(() => import('../features/admin/pages/admin-users-page'))} />
                  <Route path="users/:id" element={page(() => import('../features/admin/pages/admin-user-detail-page'))} />
                  <Route path="withdrawals" element={page(() => import('../features/admin/pages/admin-withdrawals-page'))} />
                  <Route path="tickets" element={page(() => import('../features/admin/pages/admin-tickets-page'))} />
                  <Route path="payments" element={page(() => import('../features/admin/pages/admin-payments-page'))} />
                  <Route path="custody" element={page(() => import('../features/admin/pages/admin-custody-page'))} />
                  <Route path="settings" element={page(() => import('../features/admin/pages/admin-settings-page'))} />
                  <Route path="operations" element={page(() => import('../features/admin/pages/admin-operations-page'))} />
                  <Route path="audit-log" element={page(() => import('../features/admin/pages/admin-audit-page'))} />
                  {/* Admins turn on their own two-factor authentication on the same screen (server.md section 9). */}
                  <Route path="security" element={page(() => import('../features/security/pages/security-page'))} />
                  <Route path="*" element={<Navigate to="/admin/dashboard" replace />} />
                </Route>
              </Route>
            </Route>
            <Route path="*" element={<Navigate to="/" replace />} />
          </Route>
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
