import { csvExports } from '@app/core/contracts/exports';
import type { ADMIN_EXPORT_LISTS } from '@app/core/schemas/common';
import { useCallback, useState } from 'react';
import { downloadFile } from '../../../lib/download';

type Filter = { status?: string; q?: string };

export type AdminList<F extends Filter = Filter> = {
  filter: F;
  page: number;
  setPage(page: number): void;
  setFilter(next: F): void;
  download(): Promise<void>;
};

/**
 * The state every admin list keeps: its filter and page. A new filter starts again from page 1 (the
 * old page may not exist under it), and the CSV is the whole list under the same filter, so what is
 * downloaded is what the table shows.
 */
export function useAdminList<F extends Filter>(list: (typeof ADMIN_EXPORT_LISTS)[number], initialFilter: F): AdminList<F> {
  const [filter, setFilterState] = useState(initialFilter);
  const [page, setPage] = useState(1);
  // Stable, so that a debounced search can list it in its effect's dependencies.
  const setFilter = useCallback((next: F) => {
    setFilterState(next);
    setPage(1);
  }, []);
  return {
    filter,
    page,
    setPage,
    setFilter,
    download: () => downloadFile(csvExports.admin, { query: { list, ...filter } }),
  };
}
