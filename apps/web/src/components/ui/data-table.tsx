import type { ReactNode } from 'react';
import { Spinner } from './spinner';

export interface Col<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A table with the spec's states: loading, error text, empty text. Scrolls sideways on a phone. */
export function DataTable<T>({
  cols,
  rows,
  loading,
  error,
  empty,
  rowKey,
  onRow,
  loadingText = 'Loading...',
}: {
  cols: Col<T>[];
  rows: T[] | undefined;
  loading: boolean;
  error: string | null;
  empty: string;
  rowKey: (r: T) => string;
  onRow?: (r: T) => void;
  loadingText?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[480px] text-left text-sm">
        <thead className="bg-surface-900/60 text-xs uppercase tracking-wide text-slate-400">
          <tr>
            {cols.map((c) => (
              <th key={c.header} className="px-3 py-2.5 font-medium">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {loading ? (
            <tr>
              <td colSpan={cols.length} className="px-3 py-8 text-center">
                <Spinner label={loadingText} />
              </td>
            </tr>
          ) : error ? (
            <tr>
              <td colSpan={cols.length} className="px-3 py-8 text-center text-red-400">
                {error}
              </td>
            </tr>
          ) : !rows?.length ? (
            <tr>
              <td colSpan={cols.length} className="px-3 py-8 text-center text-slate-400">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr key={rowKey(r)} onClick={onRow ? () => onRow(r) : undefined} className={onRow ? 'cursor-pointer hover:bg-white/5' : undefined}>
                {cols.map((c) => (
                  <td key={c.header} className={c.className ?? 'whitespace-nowrap px-3 py-3 text-slate-200'}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
