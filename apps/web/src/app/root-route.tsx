import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useToasterWanted } from './toaster-gate';

const AppToaster = lazy(async () => ({ default: (await import('./toaster')).AppToaster }));

const APP = 'USDT Stake';
const TITLES: Record<string, string> = {
  '/': 'USDT Stake — Passive income on USDT',
  '/privacy-policy': 'Privacy Policy',
  '/terms-conditions': 'Terms & Conditions',
  '/signup': 'Sign up',
  '/login': 'Log in',
  '/forgot-password': 'Forgot password',
  '/reset-password': 'Reset password',
  '/referral': 'One Last Step',
  '/verify-otp': 'OTP Verification',
  '/maintenance': 'Maintenance',
  '/dashboard': 'Dashboard',
  '/income': 'Income Dashboard',
  '/transaction': 'Transaction History',
  '/wallet': 'Wallet',
  '/setting': 'My Account',
  '/settings': 'My Account',
  '/profile': 'My Profile',
  '/support': 'Support',
  '/disclaimer': 'Disclaimer',
  '/transfer': 'Transfer Crypto',
  '/transfer-history': 'Transfer History',
  '/team': 'My Team',
  '/withdrawal': 'Withdraw',
  '/deposit': 'Deposit',
  '/demo-deposit': 'Create Payment',
  '/cancel': 'Transaction Failed',
  '/staking': 'Staking',
  '/staking/history': 'Staking History',
  '/security': 'Security',
};

/** The tab title a screen reader announces and a person sees in the tab list: one per route. */
export function titleFor(pathname: string): string {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return TITLES['/']!;
  const own = TITLES[path] ?? (path.startsWith('/admin') ? `Admin · ${path.split('/')[2] ?? 'dashboard'}` : null);
  return own ? `${own} · ${APP}` : APP;
}

export function RootRoute() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = titleFor(pathname);
  }, [pathname]);
  const toaster = useToasterWanted();
  return (
    <>
      <Outlet />
      {toaster ? (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      ) : null}
    </>
  );
}

/** Shown while the first route's code loads (React Router's HydrateFallback), instead of a blank page. */
export function RouteFallback() {
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status" aria-live="polite">
      <span className="h-8 w-8 animate-spin rounded-full border-2 border-white/20 border-t-emerald-400" aria-hidden />
      <span className="sr-only">Loading...</span>
    </div>
  );
}
