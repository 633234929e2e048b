import type { TActivityItem } from '@app/core/contracts';
import { History } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';

// The rows (and the payment status table they use) load after the balance has painted: they sit
// below it, and keeping them out of the signed-in chunk keeps that chunk within its budget (issue 32).
const loadRows = () => import('./activity-rows');
const ActivityRows = lazy(loadRows);

const loadingRows = (
  <div className="py-6 text-center">
    <Spinner label="Loading activities..." />
  </div>
);

export function ActivityList({ items, loading, error }: { items: TActivityItem[]; loading: boolean; error: boolean }) {
  // Fetched while get-info is on its way, so the rows are ready when the answer is.
  useEffect(() => void loadRows().catch(() => undefined), []);
  return (
    <section className="card">
      <div className="mb-3 flex items-center justify-between">
        <h2 className="text-base font-semibold text-white">Recent Activities</h2>
        <Link to="/transaction" className="-mr-2 inline-flex min-h-11 items-center px-2 text-sm font-semibold text-brand-400 hover:underline">
          View All
        </Link>
      </div>
      {loading ? (
        loadingRows
      ) : error ? (
        <p className="py-6 text-center text-sm text-red-400">Error loading user data</p>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center py-6 text-center">
          <span className="flex h-11 w-11 items-center justify-center rounded-full bg-surface-700 text-slate-400">
            <History className="h-5 w-5" aria-hidden />
          </span>
          <p className="mt-3 text-sm font-medium text-slate-300">No recent activities found</p>
          <p className="mt-1 text-xs text-slate-400">Your deposits, stakes and withdrawals will show up here.</p>
        </div>
      ) : (
        <Suspense fallback={loadingRows}>
          <ActivityRows items={items} />
        </Suspense>
      )}
    </section>
  );
}
