import { useRef, type ReactNode } from 'react';
import { csvText } from '@app/core/csv';
import { Spinner } from './spinner';

export interface Col<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/**
 * A table with the spec's states: loading, error text, empty text. Under 640 px each row becomes a
 * labelled card (header beside value), so no column — the View button, the Status — ever sits
 * off-screen; from 640 px it is a plain table whose scroll region can be reached and scrolled by
 * keyboard (tabIndex 0 + a name), as a wide admin table may still overflow there.
 */
export function DataTable<T>({
  cols,
  rows,
  loading,
  error,
  empty,
  rowKey,
  onRow,
  rowTitle,
  loadingText = 'Loading...',
  label = 'Table',
  minWidth = 'sm:min-w-[480px]',
  onRetry,
  csvFile,
}: {
  cols: Col<T>[];
  rows: T[] | undefined;
  loading: boolean;
  error: string | null;
  empty: string;
  rowKey: (r: T) => string;
  onRow?: (r: T) => void;
  rowTitle?: (r: T) => string | undefined;
  loadingText?: string;
  /** The scroll region's accessible name. */
  label?: string;
  minWidth?: string;
  /** Offered beside the error text: a failed load should not be a dead end. */
  onRetry?: () => void;
  /** Offers 'Download CSV' of the rows on screen, named `<csvFile>-<date>.csv`. */
  csvFile?: string;
}) {
  const tableRef = useRef<HTMLTableElement>(null);
  const stateRow = (content: ReactNode, className: string) => (
    <tr className="block sm:table-row">
      <td colSpan={cols.length} className={`block px-3 py-8 text-center sm:table-cell ${className}`}>
        {content}
      </td>
    </tr>
  );
  const table = (
    <div className="sm:overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table ref={tableRef} className={`block w-full text-left text-sm sm:table ${minWidth}`}>
        <thead className="sr-only bg-surface-900/60 text-xs uppercase tracking-wide text-slate-400 sm:not-sr-only sm:table-header-group">
          <tr>
            {cols.map((c) => (
              <th key={c.header} scope="col" className="px-3 py-2.5 font-medium">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="block divide-y divide-white/5 sm:table-row-group">
          {loading
            ? stateRow(<Spinner label={loadingText} />, '')
            : error
              ? stateRow(
                  <span className="inline-flex flex-col items-center gap-2">
                    <span role="alert">{error}</span>
                    {onRetry ? (
                      <button
                        type="button"
                        onClick={onRetry}
                        className="min-h-11 min-w-11 rounded-lg border border-white/15 px-3 py-1.5 text-xs font-semibold text-slate-100 hover:bg-white/5"
                      >
                        Retry
                      </button>
                    ) : null}
                  </span>,
                  'text-red-400',
                )
              : !rows?.length
                ? stateRow(empty, 'text-slate-400')
                : rows.map((r) => (
                    <tr
                      key={rowKey(r)}
                      onClick={onRow ? () => onRow(r) : undefined}
                      title={rowTitle?.(r)}
                      className={`block px-3 py-2 sm:table-row sm:p-0 ${onRow ? 'cursor-pointer hover:bg-white/5' : ''}`}
                    >
                      {cols.map((c) => (
                        <td
                          key={c.header}
                          className={`flex min-h-9 items-center justify-between gap-3 py-1 sm:table-cell sm:px-3 sm:py-3 ${c.className ?? 'text-slate-200 sm:whitespace-nowrap'}`}
                        >
                          <span className="shrink-0 text-xs font-medium uppercase tracking-wide text-slate-400 sm:hidden">{c.header}</span>
                          <span className="min-w-0 break-words text-right sm:text-left">{c.cell(r)}</span>
                        </td>
                      ))}
                    </tr>
                  ))}
        </tbody>
      </table>
    </div>
  );
  if (!csvFile || loading || error || !rows?.length) return table;
  return (
    <div>
      <div className="mb-2 flex justify-end px-3 pt-3">
        <button
          type="button"
          onClick={() => tableRef.current && downloadCsv(tableRef.current, csvFile)}
          className="min-h-11 rounded-lg border border-white/15 px-3 text-xs font-semibold text-slate-100 hover:bg-white/5"
        >
          Download CSV
        </button>
      </div>
      {table}
    </div>
  );
}

/**
 * The rows exactly as the table shows them (formatted amounts, dates, statuses), from the data the
 * page already fetched; a column of buttons only (View) is left out.
 */
function downloadCsv(table: HTMLTableElement, name: string): void {
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
  const body = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll(':scope > td')].map((td) => td.lastElementChild ?? td));
  const keep = headers.map((_, i) => body.some((cells) => cells[i] && !cells[i].querySelector('button')));
  const rows = [headers, ...body.map((cells) => cells.map((c) => c.textContent?.trim() ?? ''))].map((row) => row.filter((_, i) => keep[i]));
  const url = URL.createObjectURL(new Blob([csvText(rows)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
