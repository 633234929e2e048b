import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw, Wrench } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { storage } from '../../../lib/storage';
import { apiIsBack, MAINTENANCE_POLL_MS, watchMaintenance } from '../maintenance-watch';
import { returnPath } from '../return-path';

/**
 * Where a 503 from the API lands. It asks every 20 s whether the API answers again (and at once
 * when the network comes back or the tab is shown again) and then goes back by itself to the page
 * the person was on (issue 47: it stayed until Try again). Try again reloads the app on /dashboard,
 * which comes back here while the server is still down.
 */
export default function MaintenancePage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  useEffect(() => {
    const watch = watchMaintenance({
      probe: () => apiIsBack(),
      onBack: () => {
        // The reads that met the 503 are asked again by the page they belong to.
        void qc.invalidateQueries();
        void navigate(returnPath(storage.getToken() !== null), { replace: true });
      },
    });
    const onOnline = () => watch.now();
    const onVisible = () => {
      if (document.visibilityState === 'visible') watch.now();
    };
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      watch.stop();
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [navigate, qc]);
  return (
    <main className="relative flex min-h-dvh items-center justify-center overflow-hidden bg-surface-950 px-4 py-12">
      <div
        aria-hidden
        className="pointer-events-none absolute left-1/2 top-1/3 h-96 w-96 -translate-x-1/2 -translate-y-1/2 rounded-full bg-gold-400/10 blur-3xl"
      />
      <div className="relative w-full max-w-md rounded-3xl border border-white/10 bg-surface-800/80 p-8 text-center shadow-2xl shadow-black/40">
        <span className="mx-auto flex h-20 w-20 items-center justify-center rounded-3xl bg-gold-400/10 text-gold-400 ring-8 ring-gold-400/5">
          <Wrench className="h-9 w-9" aria-hidden />
        </span>
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-white">Server is under maintenance</h1>
        <p className="mt-3 text-pretty text-sm leading-relaxed text-slate-400">
          We are making a few improvements and will be back shortly. Your balances and stakes are safe, and no daily reward is lost: missed days are credited
          when we are back.
        </p>
        <p className="mt-3 text-xs text-slate-400" data-testid="maintenance-auto">
          {`This page checks every ${MAINTENANCE_POLL_MS / 1000} seconds and takes you back as soon as we are done.`}
        </p>
        <button
          type="button"
          onClick={() => window.location.assign('/dashboard')}
          className="mt-8 inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand-700 px-5 py-3 text-sm font-semibold text-white shadow-lg shadow-brand-500/30 transition hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
        >
          <RefreshCw className="h-4 w-4" aria-hidden /> Try again
        </button>
        <Link to="/" className="mt-3 inline-block text-sm font-medium text-slate-400 transition hover:text-white">
          Back to home
        </Link>
      </div>
    </main>
  );
}
