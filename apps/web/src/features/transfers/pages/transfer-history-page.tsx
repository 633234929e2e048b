import { formatAmount, formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../../components/ui/badge';
import { PagedQueryTable } from '../../../components/paged-query-table';
import { BackLink, PageHeader } from '../../../components/ui/page-header';
import { useErrorToast } from '../../../lib/use-error-toast';
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
  useErrorToast(list, 'Failed to fetch transfer history');
  const sent = (r: TransferRow) => (r.direction ? r.direction === 'sent' : r.sender_id === wallet.data?.user_id);
  return (
    <div>
      <PageHeader title="Transfer History" action={<BackLink to="/transfer">Back</BackLink>} />
      <div className="card p-0">
        <HistoryToolbar range={params} onDownload={() => downloadFile(csvExports.user, { query: { list: 'transfers', ...range } })} />
        <PagedQueryTable<TransferRow>
          query={list}
          errorText="Failed to fetch transfer history"
          page={page}
          onPage={params.setPage}
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
      </div>
    </div>
  );
}
