import { ArrowLeft, Mail } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export const SUPPORT_EMAIL = 'support@usdtstake.app';
export const LAST_UPDATED = 'April 17, 2025';

const DOCUMENTS = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-conditions', label: 'Terms & Conditions' },
];

/** The frame of the public legal pages: brand bar, title, date, the text, and the support contact. */
export function LegalLayout({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-surface-950">
      <header className="sticky top-0 z-10 border-b border-white/5 bg-surface-900/90 backdrop-blur-md">
        <div className="mx-auto flex h-16 max-w-3xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex min-h-11 items-center gap-2 text-lg font-bold tracking-tight text-white">
            <img src="/favicon.svg" alt="" width={32} height={32} className="h-8 w-8" />
            <span>
              USDT<span className="text-brand-400">Stake</span>
            </span>
          </Link>
          <Link
            to="/"
            className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-300 transition hover:bg-white/5 hover:text-white"
          >
            <ArrowLeft className="h-4 w-4" aria-hidden /> Back to home
          </Link>
        </div>
      </header>

      <main className="flex-1 px-4 py-10 sm:py-14">
        <article className="mx-auto max-w-3xl">
          <p className="text-xs font-semibold uppercase tracking-[0.2em] text-brand-400">Legal</p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-white sm:text-4xl">{title}</h1>
          <p className="mt-2 text-sm text-slate-400">Last updated: {LAST_UPDATED}</p>
          <div className="mt-6 text-pretty leading-relaxed text-slate-300">{intro}</div>
          <div className="mt-8 space-y-8 rounded-2xl border border-white/5 bg-surface-800/60 p-5 text-sm leading-relaxed text-slate-300 sm:p-8 [&_h2]:mb-3 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-white [&_li]:pl-1 [&_p+p]:mt-3 [&_ul+p]:mt-3 [&_strong]:text-slate-100 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5 [&_ul]:marker:text-brand-500">
            {children}
          </div>
          <aside className="mt-8 flex items-start gap-4 rounded-2xl border border-brand-500/20 bg-brand-500/5 p-5">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-500/15 text-brand-300">
              <Mail className="h-5 w-5" aria-hidden />
            </span>
            <div className="min-w-0 text-sm">
              <p className="font-semibold text-white">Questions about this document?</p>
              <p className="mt-1 text-slate-300">Write to our support team at</p>
              <a href={`mailto:${SUPPORT_EMAIL}`} className="tap font-semibold text-brand-300 hover:underline">
                {SUPPORT_EMAIL}
              </a>
            </div>
          </aside>
        </article>
      </main>

      <footer className="border-t border-white/5 px-4 py-6 text-xs text-slate-400">
        <div className="mx-auto flex max-w-3xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p>© 2025 USDT Stake</p>
          <nav aria-label="Legal" className="flex gap-4">
            {DOCUMENTS.map((d) => (
              <Link key={d.to} to={d.to} className="tap hover:text-white">
                {d.label}
              </Link>
            ))}
            <Link to="/" className="tap hover:text-white">
              Home
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
