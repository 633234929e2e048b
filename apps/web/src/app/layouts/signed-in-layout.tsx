import { ArrowLeftRight, Home, Settings, TrendingUp, Wallet } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { OfflineBanner } from './offline-banner';
import { NavItemLink } from '../../components/ui/nav-item-link';
import { MAIN_ID, SkipLink } from '../../components/ui/skip-link';

const ITEMS = [
  { to: '/income', label: 'Income', icon: TrendingUp },
  { to: '/transaction', label: 'Transaction', icon: ArrowLeftRight },
  { to: '/dashboard', label: 'Home', icon: Home, centre: true },
  { to: '/wallet', label: 'Wallet', icon: Wallet },
  { to: '/setting', label: 'Settings', icon: Settings },
] as const;
/** The side navigation leads with Home. */
const SIDE_ORDER = [ITEMS[2], ITEMS[0], ITEMS[1], ITEMS[3], ITEMS[4]];

/**
 * Signed-in pages with the bottom navigation bar (Home is the highlighted centre button). From
 * 1024 px the same links sit in a side navigation and the content gets the width back, instead of
 * a phone column with a tab bar on a desktop screen.
 */
export function SignedInLayout() {
  // The build paints each signed-in page before its JavaScript (build/prerender-pages.ts), and
  // React's first render replaces that copy (app/start.tsx). A value typed or a button pressed in
  // the painted copy would be lost (a typed stake amount vanished in 1 of 3 e2e runs): its content
  // stays inert until this layout has mounted, so input waits for the page that keeps it.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  return (
    <div className="lg:flex">
      <SkipLink />
      {/* The column carries the background down a page of any height; the links inside stay in view. */}
      <div className="hidden w-60 shrink-0 border-r border-white/5 bg-surface-900/95 lg:block">
        <nav aria-label="Main" className="sticky top-0 flex h-dvh flex-col gap-1 p-4">
          {/* The desktop's one logo: the dashboard's header hides its own from this width. */}
          <Link to="/" className="mb-4 flex min-h-11 items-center gap-2 rounded-xl px-3 text-lg font-bold tracking-tight text-white">
            <img src="/favicon.svg" alt="" className="h-8 w-8" />
            <span>
              USDT<span className="text-brand-400">Stake</span>
            </span>
          </Link>
          <ul className="space-y-1">
            {SIDE_ORDER.map((item) => (
              <li key={item.to}>
                <NavItemLink
                  item={item}
                  className="flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm transition"
                  active="bg-brand-500/15 font-semibold text-brand-300"
                  idle="text-slate-300 hover:bg-white/5 hover:text-white"
                />
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="mx-auto flex min-h-dvh w-full max-w-3xl flex-col lg:max-w-5xl">
        <main id={MAIN_ID} tabIndex={-1} inert={!live} aria-busy={!live} className="flex-1 px-4 pb-28 pt-4 outline-none sm:px-6 lg:px-10 lg:pb-10 lg:pt-8">
          <OfflineBanner />
          <Outlet />
        </main>
      </div>
      <nav
        aria-label="Main"
        className="fixed inset-x-0 bottom-0 z-40 border-t border-white/5 bg-surface-900/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
      >
        <ul className="mx-auto grid max-w-3xl grid-cols-5 items-end px-2">
          {ITEMS.map((item) => (
            <li key={item.to} className="flex justify-center">
              {'centre' in item ? (
                <NavLink to={item.to} aria-label={item.label} className="-mt-6 mb-1 flex flex-col items-center gap-1 text-xs text-slate-300">
                  <span className="flex h-14 w-14 items-center justify-center rounded-full bg-gradient-to-br from-brand-400 to-brand-600 text-white shadow-lg shadow-brand-500/40 ring-4 ring-surface-900">
                    <item.icon className="h-6 w-6" aria-hidden />
                  </span>
                  {item.label}
                </NavLink>
              ) : (
                <NavItemLink
                  item={item}
                  className="flex w-full min-w-11 flex-col items-center gap-1 py-2.5 text-xs transition"
                  active="font-semibold text-brand-400"
                  idle="text-slate-400 hover:text-slate-200"
                />
              )}
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
