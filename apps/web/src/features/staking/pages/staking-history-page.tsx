import type { TStakeRow } from '@app/core/contracts';
import { formatAmount, formatDateIso } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { DataTable } from '../../../components/ui/data-table';
import { PageHeader } from '../../../components/ui/page-header';
import { SimplePagination } from '../../../components/ui/pagination';
import { errorMessage } from '../../../lib/api-client';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { useHistoryParams } from '../../../lib/history-range';
import { stakeHistoryQueryOptions } from '../api/staking-api';
import { StakeProgress } from '../components/stake-progress';

/** Stake status badges (spec section 4): green active/completed, yellow pending, red failed, grey other. */
function tone(status: string): BadgeTone {
  if (status === 'active' || status === 'completed') return 'success';
  if (status === 'pending') return 'warning';
  if (status === 'failed') return 'danger';
  return 'neutral';
}

export default function StakingHistoryPage() {
  const params = useHistoryParams();
  const { page, range } = params;
  const history = useQuery(stakeHistoryQueryOptions(page, range));
  useEffect(() => {
    if (history.isError) toast.error(errorMessage(history.error, 'Failed to fetch staking history'));
  }, [history.isError, history.error]);
  return (
    <div>
      <PageHeader
        title="Staking History"
        action={
          <Link to="/staking" className="-my-3 inline-flex min-h-11 min-w-11 items-center gap-1 rounded-lg px-1 text-sm text-slate-300 hover:text-white">
            <ArrowLeft className="h-4 w-4" aria-hidden /> Back
          </Link>
        }
      />
      <div className="card p-0">
        <HistoryToolbar range={params} onDownload={() => downloadFile(csvExports.user, { query: { list: 'stakes', ...range } })} />
        <DataTable<TStakeRow>
          rows={history.data?.data}
          loading={history.isPending}
          error={history.isError ? errorMessage(history.error, 'Failed to fetch history') : null}
          onRetry={() => void history.refetch()}
          empty="No records found"
          rowKey={(r) => r.id}
          cols={[
            { header: 'Date', cell: (r) => formatDateIso(r.createdAt) },
            { header: 'ID', cell: (r) => `#${r.id}` },
            { header: 'Type', cell: (r) => <span className="capitalize">{r.type}</span> },
            { header: 'Amount', cell: (r) => `$${formatAmount(r.amount_usd)}` },
            { header: 'Progress', cell: (r) => <StakeProgress stake={r} />, className: 'text-slate-200' },
            { header: 'Status', cell: (r) => <Badge tone={tone(r.status)}>{r.status}</Badge> },
          ]}
        />
        {history.data ? (
          <div className="px-3 pb-3">
            <SimplePagination page={page} perPage={history.data.pagination.perPage} total={history.data.pagination.total} onPage={params.setPage} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
