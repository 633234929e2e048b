import { useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { Activity, ChevronRight, FileClock, LayoutDashboard, LifeBuoy, Link2, LockKeyhole, LogOut, Receipt, Settings, Users, Wallet } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { auth } from '@app/core/contracts/auth';
import { call } from '../../../lib/call';
import { storage } from '../../../lib/storage';
import { FADE_RIGHT, useMoreToTheRight } from '../../../components/ui/scroll-x';
import { NavItemLink } from '../../../components/ui/nav-item-link';
import { MAIN_ID, SkipLink } from '../../../components/ui/skip-link';

const NAV = [
  { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/admin/users', label: 'Users', icon: Users },
  { to: '/admin/withdrawals', label: 'Withdrawals', icon: Wallet },
  { to: '/admin/tickets', label: 'Tickets', icon: LifeBuoy },
  { to: '/admin/payments', label: 'Payments', icon: Receipt },
  { to: '/admin/custody', label: 'Custody', icon: Link2 },
  { to: '/admin/settings', label: 'Settings', icon: Settings },
  { to: '/admin/operations', label: 'Jobs & Ledger', icon: Activity },
  { to: '/admin/audit-log', label: 'Audit Log', icon: FileClock },
  { to: '/admin/security', label: 'Security', icon: LockKeyhole },
];

/** Logout sits in the header on a phone and at the foot of the sidebar on a desktop. */
function LogoutButton({ onClick, className }: { onClick: () => void; className: string }) {
  return (
    <button type="button" onClick={onClick} className={className}>
      <LogOut className="h-4 w-4" aria-hidden /> Logout
    </button>
  );
}

/** The operator's console: a sidebar on desktop, a scrolling tab bar on a phone. */
export function AdminLayout() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { pathname } = useLocation();
  const navRef = useRef<HTMLElement>(null);
  const moreTabs = useMoreToTheRight(navRef);
  // On a phone the tab bar scrolls: keep the current page's tab in view (Security is off-screen at 390 px).
  useEffect(() => {
    navRef.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  const logout = async () => {
    try {
      const res = await call(auth.logout);
      toast.success(res.message || 'Logged out successfully');
    } catch {
      toast.error('Error logging out');
    }
    storage.clearSession();
    qc.clear();
    void navigate('/', { replace: true });
  };
  return (
    <div className="min-h-dvh lg:flex">
      <SkipLink />
      <aside className="border-b border-white/5 bg-surface-900 lg:sticky lg:top-0 lg:h-dvh lg:w-60 lg:shrink-0 lg:border-b-0 lg:border-r">
        <div className="flex items-center justify-between px-4 py-4">
          <span className="text-lg font-bold text-white">
            USDT<span className="text-brand-400">Stake</span> <span className="text-xs font-medium text-gold-400">Admin</span>
          </span>
          <LogoutButton
            onClick={logout}
            className="inline-flex min-h-11 items-center gap-1.5 rounded-lg border border-white/10 px-3 text-sm text-slate-300 hover:bg-white/5 hover:text-white lg:hidden"
          />
        </div>
        <div className="relative">
          <nav
            ref={navRef}
            aria-label="Admin"
            className={clsx('flex gap-1 overflow-x-auto px-2 pb-2 lg:flex-col lg:overflow-visible lg:[mask-image:none]', moreTabs && FADE_RIGHT)}
          >
            {NAV.map((n) => (
              <NavItemLink
                key={n.to}
                item={n}
                className="flex min-h-11 shrink-0 items-center gap-2 rounded-lg px-3 py-2 text-sm transition lg:min-h-0"
                active="bg-brand-500/15 font-semibold text-brand-300"
                idle="text-slate-400 hover:bg-white/5 hover:text-slate-100"
                iconClassName="h-4 w-4"
              />
            ))}
            <LogoutButton
              onClick={logout}
              className="mt-4 hidden items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-400 hover:bg-white/5 hover:text-white lg:flex"
            />
          </nav>
          {/* On a phone the tabs run off the edge: say so, and take the person there (issue 32, item 21). */}
          {moreTabs ? (
            <button
              type="button"
              aria-label="More tabs"
              onClick={() => navRef.current?.scrollBy({ left: navRef.current.clientWidth * 0.7, behavior: 'smooth' })}
              className="absolute inset-y-0 right-0 mb-2 flex w-11 items-center justify-center text-slate-200 lg:hidden"
            >
              <span className="flex h-8 w-8 items-center justify-center rounded-full border border-white/15 bg-surface-800 shadow-lg">
                <ChevronRight className="h-4 w-4" aria-hidden />
              </span>
            </button>
          ) : null}
        </div>
      </aside>
      <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 outline-none lg:px-8">
        <Outlet />
      </main>
    </div>
  );
}
