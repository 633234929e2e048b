import { Menu, X } from 'lucide-react';
import { Link } from 'react-router';
import { storage } from '../../../lib/storage';
import { NAVBAR_LOOK } from './behaviour';
import { Wordmark } from './brand';
import { SectionLinks } from './section-links';
import { useClientValue } from './use-client-value';

// The bar's links sit beside the menu button; the phone menu's fill a two-column grid.
const ACCOUNT_LINK_LOOKS = {
  bar: {
    login: 'hidden min-h-11 items-center rounded-xl px-3 py-2 text-sm font-semibold text-slate-200 transition hover:text-white sm:inline-flex',
    account:
      'inline-flex min-h-11 items-center rounded-xl bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-lg shadow-brand-500/20 transition hover:bg-brand-800',
    visitorLabel: 'Sign up',
  },
  menu: {
    login: 'rounded-xl border border-white/10 px-3 py-2.5 text-center text-slate-100 hover:bg-white/5',
    account: 'rounded-xl bg-brand-700 px-3 py-2.5 text-center text-white hover:bg-brand-800',
    visitorLabel: 'Create account',
  },
};

/** Login, and the account link: 'Dashboard' for a remembered account (behaviour.ts rewrites it on the pre-rendered page). */
function AccountLinks({ signedIn, look }: { signedIn: boolean; look: keyof typeof ACCOUNT_LINK_LOOKS }) {
  const { login, account, visitorLabel } = ACCOUNT_LINK_LOOKS[look];
  return (
    <>
      <Link to="/login" className={login}>
        Login
      </Link>
      <Link to={signedIn ? '/dashboard' : '/signup'} data-account-link className={account}>
        {signedIn ? 'Dashboard' : visitorLabel}
      </Link>
    </>
  );
}

/**
 * Transparent over the hero, solid once the page has scrolled more than NAVBAR_SCROLL_PX, with a
 * menu on a phone: markup only, as at the top of the page with the menu closed; behaviour.ts
 * switches the look, opens the menu and names 'Dashboard' for a remembered account.
 */
export function Navbar() {
  const signedIn = useClientValue(() => storage.getToken() !== null, false);
  return (
    <header
      data-testid="navbar"
      data-scrolled="false"
      className={`fixed inset-x-0 top-0 z-50 border-b transition-[background-color,border-color,box-shadow] duration-300 ${NAVBAR_LOOK.top}`}
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <a href="#Home" className="flex min-h-11 items-center text-lg">
          <Wordmark />
        </a>
        <SectionLinks
          className="hidden items-center gap-1 text-sm text-slate-300 lg:flex"
          linkClassName="inline-flex min-h-11 items-center rounded-lg px-2.5 py-2 transition hover:bg-white/5 hover:text-white"
        />
        <div className="flex items-center gap-2">
          <AccountLinks signedIn={signedIn} look="bar" />
          <button
            type="button"
            className="flex h-11 w-11 items-center justify-center rounded-lg text-slate-200 transition hover:bg-white/5 lg:hidden"
            aria-label="Open menu"
            aria-expanded="false"
            aria-controls="landing-menu"
          >
            <span data-icon="menu">
              <Menu className="h-5 w-5" aria-hidden />
            </span>
            <span data-icon="close" hidden>
              <X className="h-5 w-5" aria-hidden />
            </span>
          </button>
        </div>
      </nav>
      <div id="landing-menu" hidden className="border-t border-white/5 px-4 pb-4 pt-2 lg:hidden">
        <SectionLinks className="grid grid-cols-2 gap-1 text-sm" linkClassName="block rounded-lg px-3 py-2.5 text-slate-200 hover:bg-white/5" />
        <div className="mt-3 grid grid-cols-2 gap-2 border-t border-white/5 pt-3 text-sm font-semibold">
          <AccountLinks signedIn={signedIn} look="menu" />
        </div>
      </div>
    </header>
  );
}
