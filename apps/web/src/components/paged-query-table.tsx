import { errorMessage } from '../lib/api-client';
import { DataTable, type Col } from './ui/data-table';
import { NumberedPagination, SimplePagination } from './ui/pagination';

/** One page of a list as the server sends it (`data` and its `pagination`). */
interface PagedList<T> {
  data: T[];
  pagination: { perPage: number; total: number };
}

/** The parts of a react-query result a paged table reads. */
interface PagedQuery<T> {
  data: PagedList<T> | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * The pagination under a paged table, once its first page has come; `simple` is Previous, 'Page X
 * of Y', Next, otherwise the page numbers.
 */
export function TablePagination({
  list,
  page,
  onPage,
  simple = false,
}: {
  list: PagedList<unknown> | undefined;
  page: number;
  onPage: (page: number) => void;
  simple?: boolean;
}) {
  if (!list) return null;
  const Pagination = simple ? SimplePagination : NumberedPagination;
  return (
    <div className="px-3 pb-3">
      <Pagination page={page} perPage={list.pagination.perPage} total={list.pagination.total} onPage={onPage} />
    </div>
  );
}

/**
 * A history page's table fed by its paged query: the query's loading and error states (the error
 * with Retry, so a failed load is not a dead end) and the pagination under it. `loading` overrides
 * the first-load state, e.g. to show the spinner while a new tab's rows replace the previous ones.
 */
export function PagedQueryTable<T>({
  query,
  errorText,
  loading,
  page,
  onPage,
  simplePagination,
  empty,
  rowKey,
  cols,
}: {
  query: PagedQuery<T>;
  /** Said when the server's error has no message of its own. */
  errorText: string;
  loading?: boolean;
  page: number;
  onPage: (page: number) => void;
  simplePagination?: boolean;
  empty: string;
  rowKey: (row: T) => string;
  cols: Col<T>[];
}) {
  return (
    <>
      <DataTable<T>
        rows={query.data?.data}
        loading={loading ?? query.isPending}
        error={query.isError ? errorMessage(query.error, errorText) : null}
        onRetry={() => void query.refetch()}
        empty={empty}
        rowKey={rowKey}
        cols={cols}
      />
      <TablePagination list={query.data} page={page} onPage={onPage} simple={simplePagination} />
    </>
  );
}
