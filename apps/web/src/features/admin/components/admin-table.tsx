import type { ReactNode } from 'react';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { NumberedPagination } from '../../../components/ui/pagination';
import { DataTable, type Col } from '../../../components/ui/data-table';
import { errorMessage } from '../../../lib/api-client';
import type { AdminList } from './use-admin-list';

export type Column<T> = Col<T>;

/**
 * A paginated admin table with loading, error and empty rows (the shared DataTable plus paging),
 * under a 'Download CSV' of the whole list with its filters, from the server (issue 32, item 18).
 */
export function AdminTable<T extends { id: string }>({
  list,
  columns,
  query,
  empty,
  onRow,
}: {
  list: AdminList;
  columns: Column<T>[];
  query: { isPending: boolean; isError: boolean; error: unknown; data?: { data: T[]; pagination: { total: number; perPage: number } } };
  empty: string;
  onRow?: (row: T) => void;
}) {
  return (
    <div className="card overflow-hidden p-0">
      <HistoryToolbar onDownload={list.download} />
      <DataTable<T>
        cols={columns}
        rows={query.data?.data}
        loading={query.isPending}
        error={query.isError ? errorMessage(query.error, 'Failed to load') : null}
        empty={empty}
        rowKey={(r) => r.id}
        {...(onRow ? { onRow } : {})}
      />
      {query.data ? (
        <div className="px-4 pb-4">
          <NumberedPagination
            page={list.page}
            perPage={query.data.pagination.perPage}
            total={query.data.pagination.total}
            onPage={(p) => (list.setPage(p), window.scrollTo({ top: 0 }))}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The list's status filter: '' (All) or one of the options. */
export function StatusFilter({ list, options }: { list: AdminList<{ status: string }>; options: readonly string[] }) {
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-300">
      Status
      <select className="input w-auto py-1.5" value={list.filter.status} onChange={(e) => list.setFilter({ status: e.target.value })}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="card">
      <p className="text-xs uppercase tracking-wide text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-bold text-white">{value}</p>
      {hint ? <p className="mt-0.5 text-xs text-slate-400">{hint}</p> : null}
    </div>
  );
}
