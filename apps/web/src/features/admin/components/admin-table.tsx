import type { ReactNode } from 'react';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { NumberedPagination } from '../../../components/ui/pagination';
import { DataTable, type Col } from '../../../components/ui/data-table';
import { errorMessage } from '../../../lib/api-client';

export type Column<T> = Col<T>;

/** A paginated admin table with loading, error and empty rows (the shared DataTable plus paging). */
export function AdminTable<T extends { id: string }>({
  columns,
  query,
  empty,
  page,
  onPage,
  onRow,
  onDownload,
}: {
  columns: Column<T>[];
  query: { isPending: boolean; isError: boolean; error: unknown; data?: { data: T[]; pagination: { total: number; perPage: number } } };
  empty: string;
  page: number;
  onPage: (p: number) => void;
  onRow?: (row: T) => void;
  /** 'Download CSV': the whole list with its filters, from the server (issue 32, item 18). */
  onDownload?: () => Promise<void>;
}) {
  return (
    <div className="card overflow-hidden p-0">
      {onDownload ? <HistoryToolbar onDownload={onDownload} /> : null}
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
            page={page}
            perPage={query.data.pagination.perPage}
            total={query.data.pagination.total}
            onPage={(p) => (onPage(p), window.scrollTo({ top: 0 }))}
          />
        </div>
      ) : null}
    </div>
  );
}

export function StatusFilter({ value, onChange, options }: { value: string; onChange: (v: string) => void; options: readonly string[] }) {
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-300">
      Status
      <select className="input w-auto py-1.5" value={value} onChange={(e) => onChange(e.target.value)}>
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
