import { Component, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AdminRoute, GuestOnlyRoute, ProtectedRoute } from './guards';
import { lazyNamed, lazyPage, type LazyPage } from './lazy-page';
import { RootRoute, RouteFallback } from './root-route';

/*
 * Declarative routes (<Routes>) rather than createBrowserRouter: the data router costs about 19 KB
 * gzipped that a visitor's first paint of / would wait for, and no screen uses loaders or actions.
 * Each page is its own chunk, so the landing page loads only what it shows; start.tsx preloads the
 * current route's chunks (preloadRoute) so its first render is the page, not a spinner.
 */
const Landing = lazyPage(() => import('../features/landing/pages/landing-page'));
const Providers = lazyNamed(() => import('./app-providers'), 'AppProviders');
const SignedInLayout = lazyNamed(() => import('./layouts/signed-in-layout'), 'SignedInLayout');
const AdminLayout = lazyNamed(() => import('../features/admin/components/admin-layout'), 'AdminLayout');

/** Pages for everyone, inside the data and toast providers. */
const PUBLIC_PAGES: Record<string, LazyPage> = {
  '/privacy-policy': lazyPage(() => import('../features/legal/pages/privacy-policy-page')),
  '/terms-conditions': lazyPage(() => import('../features/legal/pages/terms-page')),
  '/referral': lazyPage(() => import('../features/auth/pages/referral-page')),
  '/verify-otp': lazyPage(() => import('../features/auth/pages/verify-otp-page')),
  '/maintenance': lazyPage(() => import('../features/maintenance/pages/maintenance-page')),
};
/** Guest-only pages. */
const GUEST_PAGES: Record<string, LazyPage> = {
  '/signup': lazyPage(() => import('../features/auth/pages/signup-page')),
  '/login': lazyPage(() => import('../features/auth/pages/login-page')),
  '/forgot-password': lazyPage(() => import('../features/auth/pages/forgot-password-page')),
  '/reset-password': lazyPage(() => import('../features/auth/pages/reset-password-page')),
};
/** The page modules under features/, loaded on demand (one chunk each unless the build merges them). */
const PAGE_MODULES = import.meta.glob<{ default: ComponentType }>('../features/*/pages/*.tsx');
const featurePage = (file: string): LazyPage => {
  const load = PAGE_MODULES[`../features/${file}.tsx`];
  if (!load) throw new Error(`no page module features/${file}.tsx`);
  return lazyPage(load);
};
/**
 * The signed-in pages (in the layout with the navigation) and their modules under features/: the
 * build paints each one's shell into its own HTML page and preloads that module beside the entry.
 */
export const SIGNED_IN_PAGE_MODULES: Readonly<Record<string, string>> = {
  '/dashboard': 'dashboard/pages/dashboard-page',
  '/income': 'income/pages/income-page',
  '/transaction': 'transactions/pages/transaction-page',
  '/wallet': 'wallet/pages/wallet-page',
  '/setting': 'settings/pages/settings-page',
  '/settings': 'settings/pages/settings-page',
  '/profile': 'profile/pages/profile-page',
  '/security': 'security/pages/security-page',
  '/support': 'support/pages/support-page',
  '/disclaimer': 'legal/pages/disclaimer-page',
  '/transfer': 'transfers/pages/transfer-page',
  '/transfer-history': 'transfers/pages/transfer-history-page',
  '/team': 'team/pages/team-page',
  '/withdrawal': 'withdrawals/pages/withdrawal-page',
  '/deposit': 'deposits/pages/deposit-page',
  '/demo-deposit': 'deposits/pages/demo-deposit-page',
  '/cancel': 'deposits/pages/cancel-page',
  '/staking': 'staking/pages/staking-page',
  '/staking/history': 'staking/pages/staking-history-page',
};
const SIGNED_IN_PAGES: Readonly<Record<string, LazyPage>> = Object.fromEntries(
  Object.entries(SIGNED_IN_PAGE_MODULES).map(([path, file]) => [path, featurePage(file)]),
);
const security = SIGNED_IN_PAGES['/security']!;
/** The admin console's pages, under /admin/. */
const ADMIN_PAGES: Record<string, LazyPage> = {
  dashboard: lazyPage(() => import('../features/admin/pages/admin-dashboard-page')),
  users: lazyPage(() => import('../features/admin/pages/admin-users-page')),
  'users/:id': lazyPage(() => import('../features/admin/pages/admin-user-detail-page')),
  withdrawals: lazyPage(() => import('../features/admin/pages/admin-withdrawals-page')),
  tickets: lazyPage(() => import('../features/admin/pages/admin-tickets-page')),
  payments: lazyPage(() => import('../features/admin/pages/admin-payments-page')),
  custody: lazyPage(() => import('../features/admin/pages/admin-custody-page')),
  settings: lazyPage(() => import('../features/admin/pages/admin-settings-page')),
  operations: lazyPage(() => import('../features/admin/pages/admin-operations-page')),
  'audit-log': lazyPage(() => import('../features/admin/pages/admin-audit-page')),
  // Admins turn on their own two-factor authentication on the same screen (server.md section 9).
  security,
};

/** Loads the code of the screen at `pathname` (providers, layout, page), so start.tsx renders it without a fallback. */
export async function preloadRoute(pathname: string): Promise<void> {
  const path = pathname.replace(/(.)\/+$/, '$1');
  if (path === '/') return Landing.preload();
  const parts: (LazyPage | undefined)[] = [Providers];
  if (path in SIGNED_IN_PAGES) parts.push(SignedInLayout, SIGNED_IN_PAGES[path]);
  else if (path.startsWith('/admin/')) parts.push(AdminLayout, ADMIN_PAGES[path.slice('/admin/'.length)]);
  else parts.push(PUBLIC_PAGES[path] ?? GUEST_PAGES[path]);
  await Promise.all(parts.map((p) => p?.preload()));
}

const routes = (pages: Record<string, LazyPage>) => Object.entries(pages).map(([path, Page]) => <Route key={path} path={path} element={<Page />} />);

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
            <Route path="/" element={<Landing />} />
            {/* Everything but the landing page runs inside the data and toast providers, loaded with the first such route. */}
            <Route element={<Providers />}>
              {routes(PUBLIC_PAGES)}
              <Route element={<GuestOnlyRoute />}>{routes(GUEST_PAGES)}</Route>
              <Route element={<ProtectedRoute />}>
                <Route element={<SignedInLayout />}>{routes(SIGNED_IN_PAGES)}</Route>
              </Route>
              <Route path="/admin" element={<AdminRoute />}>
                <Route element={<AdminLayout />}>
                  <Route index element={<Navigate to="/admin/dashboard" replace />} />
                  {routes(ADMIN_PAGES)}
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
