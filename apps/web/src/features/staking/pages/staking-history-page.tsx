import type { TStakeRow } from '@app/core/contracts';
import { formatAmount, formatDateIso } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { StatusBadge } from '../../../components/status-badge';
import { PagedQueryTable } from '../../../components/paged-query-table';
import { BackLink, PageHeader } from '../../../components/ui/page-header';
import { useErrorToast } from '../../../lib/use-error-toast';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { useHistoryParams } from '../../../lib/history-range';
import { stakeHistoryQueryOptions } from '../api/staking-api';
import { StakeProgress } from '../components/stake-progress';

export default function StakingHistoryPage() {
  const params = useHistoryParams();
  const { page, range } = params;
  const history = useQuery(stakeHistoryQueryOptions(page, range));
  useErrorToast(history, 'Failed to fetch staking history');
  return (
    <div>
      <PageHeader title="Staking History" action={<BackLink to="/staking">Back</BackLink>} />
      <div className="card p-0">
        <HistoryToolbar range={params} onDownload={() => downloadFile(csvExports.user, { query: { list: 'stakes', ...range } })} />
        <PagedQueryTable<TStakeRow>
          query={history}
          errorText="Failed to fetch history"
          page={page}
          onPage={params.setPage}
          simplePagination
          empty="No records found"
          rowKey={(r) => r.id}
          cols={[
            { header: 'Date', cell: (r) => formatDateIso(r.createdAt) },
            { header: 'ID', cell: (r) => `#${r.id}` },
            { header: 'Type', cell: (r) => <span className="capitalize">{r.type}</span> },
            { header: 'Amount', cell: (r) => `$${formatAmount(r.amount_usd)}` },
            { header: 'Progress', cell: (r) => <StakeProgress stake={r} />, className: 'text-slate-200' },
            { header: 'Status', cell: (r) => <StatusBadge kind="stake" status={r.status} /> },
          ]}
        />
      </div>
    </div>
  );
}
