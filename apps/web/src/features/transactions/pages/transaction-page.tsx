import type { THistoryRecord } from '@app/core/contracts';
import { abbreviateAmount, formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { ArrowDownToLine, ArrowUpFromLine } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PendingWithdrawals } from '../../../components/pending-withdrawals';
import { PagedQueryTable } from '../../../components/paged-query-table';
import { PageHeader } from '../../../components/ui/page-header';
import { StatCard } from '../../../components/ui/stat-card';
import { TabList } from '../../../components/ui/tab-list';
import { errorMessage } from '../../../lib/api-client';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { useHistoryParams } from '../../../lib/history-range';
import { EXPORT_LIST, historyQueryOptions, type HistoryType } from '../../../lib/history-api';
import { DetailsDialog } from '../components/details-dialog';
import { HistoryAmount, HistoryStatus } from '../components/history-cells';

const TABS: { key: HistoryType; label: string }[] = [
  { key: 'transaction', label: 'Deposits' },
  { key: 'withdrawal', label: 'Withdrawals' },
  { key: 'transfer', label: 'Transfers' },
];

export default function TransactionPage() {
  // Tab, page and date range live in the URL (issue 32, item 19).
  const params = useHistoryParams<HistoryType>('transaction');
  const type: HistoryType = TABS.some((t) => t.key === params.tab) ? params.tab : 'transaction';
  const { page, range } = params;
  const [open, setOpen] = useState<THistoryRecord | null>(null);
  const history = useQuery(historyQueryOptions(type, page, range));
  // One toast per failure: the same message is not raised again by a re-fetch that fails the same
  // way (the app coming back to the foreground, a tab switch) until a load succeeds; the fixed id
  // keeps a second one from stacking under the first.
  const toasted = useRef<string | null>(null);
  useEffect(() => {
    if (history.isSuccess) toasted.current = null;
    if (!history.isError) return;
    const message = errorMessage(history.error, 'Failed to fetch user history');
    if (toasted.current === message) return;
    toasted.current = message;
    toast.error(message, { id: 'history-error' });
  }, [history.isError, history.isSuccess, history.error]);
  const totals = history.data;
  return (
    <div className="space-y-4">
      <PageHeader title="Transaction History" subtitle="View and manage your transactions" />
      <div className="grid grid-cols-2 gap-3">
        <StatCard
          label="Total Deposits"
          value={totals ? `$${abbreviateAmount(totals.total_deposits)}` : history.isError ? '—' : 'Loading...'}
          icon={ArrowDownToLine}
          testId="total-deposits"
        />
        <StatCard
          label="Total Withdrawals"
          value={totals ? `$${abbreviateAmount(totals.total_withdrawals)}` : history.isError ? '—' : 'Loading...'}
          icon={ArrowUpFromLine}
          testId="total-withdrawals"
        />
      </div>
      <PendingWithdrawals />
      <section className="card p-0">
        <div className="p-4 pb-3">
          <h2 className="text-base font-semibold text-white">Transaction Overview</h2>
          <p className="text-xs text-slate-400">Track your financial activities</p>
          <TabList
            label="History type"
            tabs={TABS}
            selected={type}
            onSelect={params.setTab}
            className="mt-3 grid grid-cols-3 gap-1 rounded-xl bg-surface-900 p-1"
            tabClassName="min-h-11 rounded-lg px-2 py-2 text-xs font-semibold sm:text-sm"
          />
        </div>
        <HistoryToolbar range={params} onDownload={() => downloadFile(csvExports.user, { query: { list: EXPORT_LIST[type], ...range } })} />
        <PagedQueryTable<THistoryRecord>
          query={history}
          loading={history.isPending || (history.isFetching && history.isPlaceholderData)}
          errorText="Failed to load history"
          page={page}
          onPage={params.setPage}
          simplePagination
          empty="No records found"
          rowKey={(r) => r.id}
          cols={[
            { header: 'Date', cell: (r) => formatDateLong(r.createdAt) },
            { header: 'Amount', cell: (r) => <HistoryAmount record={r} type={type} /> },
            { header: 'Status', cell: (r) => <HistoryStatus record={r} type={type} /> },
            {
              header: 'Action',
              cell: (r) => (
                <button
                  type="button"
                  onClick={() => setOpen(r)}
                  className="-my-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-white/10 px-3 text-xs font-semibold text-slate-200 hover:bg-white/5"
                >
                  View
                </button>
              ),
            },
          ]}
        />
      </section>
      <DetailsDialog record={open} type={type} onClose={() => setOpen(null)} />
    </div>
  );
}
