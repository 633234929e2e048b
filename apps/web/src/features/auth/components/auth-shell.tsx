import type { LucideIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useHydrated } from '../../../lib/use-hydrated';

/** The line under the card: a question and the link that answers it. */
export interface AuthFooter {
  text: string;
  to: string;
  link: string;
}

/** The frame of the sign-in pages: brand, title, card (with an icon badge on top), and a footer link. */
export function AuthShell({
  title,
  subtitle,
  icon: Icon,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  icon?: LucideIcon;
  children: ReactNode;
  footer?: AuthFooter;
}) {
  // The card fades in when the app draws it, but not in the HTML pre-rendered at build time (/login):
  // there the fade only held the first paint back (Lighthouse FCP 2.1 s against 1.5 s without it).
  // Frozen at mount, so hydration never restarts it.
  const hydrated = useHydrated();
  const [fade] = useState(hydrated);
  // overflow-clip rather than hidden: a clipping box is no scroll container, so focusing a field can
  // never scroll the wide glow (and the card with it) sideways on a phone.
  return (
    <div className="relative flex min-h-dvh items-center justify-center overflow-clip px-4 py-10">
      <div aria-hidden className="pointer-events-none absolute -top-40 left-1/2 h-80 w-[36rem] -translate-x-1/2 rounded-full bg-brand-500/20 blur-3xl" />
      {/* The page's main landmark (axe and Lighthouse: landmark-one-main; a screen reader jumps to it). */}
      <main className={fade ? 'relative w-full max-w-md animate-fade-in' : 'relative w-full max-w-md'}>
        <Link to="/" className="mb-6 flex min-h-11 items-center justify-center gap-2 text-xl font-bold text-white">
          <img src="/favicon.svg" alt="" className="h-8 w-8" />
          USDT<span className="-ml-2 text-brand-400">Stake</span>
        </Link>
        <div className="card p-6">
          <h1 className="text-2xl font-bold text-white">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-400">{subtitle}</p> : null}
          <div className="mt-6">
            {Icon ? (
              <div className="mb-5 flex justify-center">
                <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-500/15 text-brand-300">
                  <Icon className="h-7 w-7" aria-hidden />
                </span>
              </div>
            ) : null}
            {children}
          </div>
        </div>
        {footer ? (
          <div className="mt-4 text-center text-sm text-slate-400">
            {footer.text}{' '}
            <Link to={footer.to} className="tap font-semibold text-brand-400 hover:underline">
              {footer.link}
            </Link>
          </div>
        ) : null}
      </main>
    </div>
  );
}
