import { NAVBAR_SCROLL_PX } from '@app/core/constants';
import clsx from 'clsx';
import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';

export const SECTIONS = [
  { id: 'Home', label: 'Home' },
  { id: 'HowStart', label: 'How to Start' },
  { id: 'chains', label: 'Chains' },
  { id: 'wallet', label: 'Wallets' },
  { id: 'About', label: 'About' },
  { id: 'defi', label: 'DeFi' },
  { id: 'Roadmap', label: 'Roadmap' },
  { id: 'FAQ', label: 'FAQ' },
] as const;

/** Transparent over the hero; solid once the page has scrolled 20 px. */
export function Navbar() {
  const [scrolled, setScrolled] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAVBAR_SCROLL_PX);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <header data-testid="navbar" data-scrolled={scrolled} className={clsx('fixed inset-x-0 top-0 z-50 transition-colors duration-300', scrolled || open ? 'bg-surface-900/95 shadow-lg shadow-black/30 backdrop-blur' : 'bg-transparent')}>
      <nav className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
        <a href="#Home" className="flex items-center gap-2 text-lg font-bold text-white">
          <img src="/favicon.svg" alt="" className="h-8 w-8" />
          USDT<span className="-ml-2 text-brand-400">Stake</span>
        </a>
        <ul className="hidden items-center gap-5 text-sm text-slate-300 lg:flex">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="hover:text-white">
                {s.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-2">
          <Link to="/login" className="hidden rounded-xl px-3 py-2 text-sm font-semibold text-slate-200 hover:text-white sm:inline-flex">
            Login
          </Link>
          <Link to="/signup" className="rounded-xl bg-brand-500 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600">
            Sign up
          </Link>
          <button type="button" className="rounded-lg p-2 text-slate-200 lg:hidden" aria-label={open ? 'Close menu' : 'Open menu'} aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            {open ? <X className="h-5 w-5" /> : <Menu className="h-5 w-5" />}
          </button>
        </div>
      </nav>
      {open ? (
        <ul className="grid grid-cols-2 gap-1 border-t border-white/5 px-4 py-3 text-sm lg:hidden">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} onClick={() => setOpen(false)} className="block rounded-lg px-3 py-2 text-slate-200 hover:bg-white/5">
                {s.label}
              </a>
            </li>
          ))}
          <li>
            <Link to="/login" className="block rounded-lg px-3 py-2 text-slate-200 hover:bg-white/5">
              Login
            </Link>
          </li>
        </ul>
      ) : null}
    </header>
  );
}
