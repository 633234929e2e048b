import { formatAmount, formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { DataTable } from '../../../components/ui/data-table';
import { PageHeader } from '../../../components/ui/page-header';
import { NumberedPagination } from '../../../components/ui/pagination';
import { errorMessage } from '../../../lib/api-client';
import { walletQueryOptions } from '../../../lib/shared-queries';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { useHistoryParams } from '../../../lib/history-range';
import { transfersQueryOptions, type TransferRow } from '../api/transfers-api';

export default function TransferHistoryPage() {
  const params = useHistoryParams();
  const { page, range } = params;
  const list = useQuery(transfersQueryOptions(page, range));
  const wallet = useQuery(walletQueryOptions());
  useEffect(() => {
    if (list.isError) toast.error(errorMessage(list.error, 'Failed to fetch transfer history'));
  }, [list.isError, list.error]);
  const sent = (r: TransferRow) => (r.direction ? r.direction === 'sent' : r.sender_id === wallet.data?.user_id);
  return (
    <div>
      <PageHeader
        title="Transfer History"
        action={
          <Link to="/transfer" className="-my-3 inline-flex min-h-11 min-w-11 items-center gap-1 rounded-lg px-1 text-sm text-slate-300 hover:text-white">
            <ArrowLeft className="h-4 w-4" aria-hidden /> Back
          </Link>
        }
      />
      <div className="card p-0">
        <HistoryToolbar range={params} onDownload={() => downloadFile(csvExports.user, { query: { list: 'transfers', ...range } })} />
        <DataTable<TransferRow>
          rows={list.data?.data}
          loading={list.isPending}
          error={list.isError ? errorMessage(list.error, 'Failed to fetch transfer history') : null}
          onRetry={() => void list.refetch()}
          empty="No transfer history found"
          rowKey={(r) => r.id}
          cols={[
            { header: 'Date', cell: (r) => formatDateLong(r.createdAt) },
            {
              // Signed, so sent and received differ in more than colour (issue 32, item 9).
              header: 'Amount',
              cell: (r) => (
                <span className={sent(r) ? 'font-semibold text-red-300' : 'font-semibold text-emerald-300'} data-testid="transfer-amount">
                  {`${sent(r) ? '−' : '+'}${formatAmount(r.amount_usd)} USDT`}
                </span>
              ),
            },
            { header: 'Type', cell: (r) => (sent(r) ? <Badge tone="danger">Sent</Badge> : <Badge tone="success">Received</Badge>) },
            { header: 'Wallet', cell: (r) => <span className="capitalize">{r.type}</span> },
            { header: 'User', cell: (r) => <span>{sent(r) ? `To ${r.Receiver.username}` : `From ${r.Sender.username}`}</span> },
          ]}
        />
        {list.data ? (
          <div className="px-3 pb-3">
            <NumberedPagination page={page} perPage={list.data.pagination.perPage} total={list.data.pagination.total} onPage={params.setPage} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
