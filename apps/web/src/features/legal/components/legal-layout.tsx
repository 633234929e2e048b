import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export const SUPPORT_EMAIL = 'support@usdtstake.app';

export function LegalLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="min-h-dvh px-4 py-10">
      <article className="mx-auto max-w-3xl">
        <Link to="/" className="inline-flex items-center gap-1 text-sm text-slate-400 hover:text-white">
          <ArrowLeft className="h-4 w-4" aria-hidden /> Home
        </Link>
        <h1 className="mt-4 text-3xl font-bold text-white">{title}</h1>
        <p className="mt-1 text-sm text-slate-400">Last updated: April 17, 2025</p>
        <div className="mt-8 space-y-6 text-sm leading-relaxed text-slate-300 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-white [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5">{children}</div>
        <p className="mt-10 rounded-2xl border border-white/5 bg-surface-800/70 p-4 text-sm text-slate-300">
          Questions? Contact our support team at{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} className="font-semibold text-brand-400 hover:underline">
            {SUPPORT_EMAIL}
          </a>
          .
        </p>
      </article>
    </div>
  );
}
