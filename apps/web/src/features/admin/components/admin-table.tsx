import type { ReactNode } from 'react';
import { NumberedPagination } from '../../../components/ui/pagination';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A paginated admin table with loading, error and empty rows. */
export function AdminTable<T extends { id: string }>({
  columns,
  query,
  empty,
  page,
  onPage,
  onRow,
}: {
  columns: Column<T>[];
  query: { isPending: boolean; isError: boolean; error: unknown; data?: { data: T[]; pagination: { total: number; perPage: number } } };
  empty: string;
  page: number;
  onPage: (p: number) => void;
  onRow?: (row: T) => void;
}) {
  const rows = query.data?.data ?? [];
  return (
    <div className="card overflow-hidden p-0">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[720px] text-left text-sm">
          <thead className="bg-surface-900/60 text-xs uppercase tracking-wide text-slate-400">
            <tr>
              {columns.map((c) => (
                <th key={c.header} className="px-4 py-2.5 font-medium">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-white/5">
            {query.isPending ? (
              <tr>
                <td colSpan={columns.length} className="px-4 py-8 text-center">
                  <Spinner label="Loading..." />
                </td>
              </tr>
            ) : query.isError ? (
              <tr>
                <td colSpan={columns.length} className="px-4 py-8 text-center text-red-400">
                  {errorMessage(query.error, 'Failed to load')}
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-400">
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={r.id} onClick={onRow ? () => onRow(r) : undefined} className={onRow ? 'cursor-pointer hover:bg-white/5' : undefined}>
                  {columns.map((c) => (
                    <td key={c.header} className={c.className ?? 'px-4 py-3 text-slate-200'}>
                      {c.cell(r)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {query.data ? (
        <div className="px-4 pb-4">
          <NumberedPagination page={page} perPage={query.data.pagination.perPage} total={query.data.pagination.total} onPage={onPage} />
        </div>
      ) : null}
    </div>
  );
}

export function StatusFilter({ value, onChange, options }: { value: string; onChange: (v: string) => void; options: string[] }) {
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
