import type { TTeamMember } from '@app/core/contracts';
import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { LayoutDashboard } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { DataTable } from '../../../components/ui/data-table';
import { HeaderLink } from '../../../components/ui/header-link';
import { PageHeader } from '../../../components/ui/page-header';
import { NumberedPagination } from '../../../components/ui/pagination';
import { errorMessage } from '../../../lib/api-client';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { teamQueryOptions } from '../api/team-api';

function Avatar({ m }: { m: TTeamMember }) {
  const [failed, setFailed] = useState(false);
  if (m.avatar && !failed) return <img src={m.avatar} alt="" className="h-8 w-8 rounded-full object-cover" onError={() => setFailed(true)} />;
  return (
    <span
      aria-hidden
      className="flex h-8 w-8 items-center justify-center rounded-full bg-gradient-to-br from-brand-400/40 to-brand-600/40 text-xs font-bold text-brand-100"
    >
      {m.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

export default function TeamPage() {
  const [page, setPage] = useState(1);
  const team = useQuery(teamQueryOptions(page));
  useEffect(() => {
    if (team.isError) toast.error(errorMessage(team.error, 'Failed to fetch team members'));
  }, [team.isError, team.error]);
  return (
    <div>
      <PageHeader
        title="My Team"
        subtitle="Your direct referrals"
        action={
          <HeaderLink to="/dashboard" icon={LayoutDashboard}>
            Dashboard
          </HeaderLink>
        }
      />
      <div className="card p-0">
        <HistoryToolbar onDownload={() => downloadFile(csvExports.user, { query: { list: 'team' } })} />
        <DataTable<TTeamMember>
          rows={team.data?.data}
          loading={team.isPending}
          error={team.isError ? errorMessage(team.error, 'Failed to fetch team members') : null}
          onRetry={() => void team.refetch()}
          empty="No team members found"
          rowKey={(m) => m.username}
          cols={[
            { header: 'Avatar', cell: (m) => <Avatar m={m} /> },
            { header: 'Username', cell: (m) => <span className="font-mono">{m.username}</span> },
            { header: 'Name', cell: (m) => m.name },
            { header: 'Date', cell: (m) => formatDateLong(m.createdAt) },
            { header: 'Status', cell: (m) => <Badge tone={m.status === 'active' ? 'success' : 'danger'}>{m.status}</Badge> },
          ]}
        />
        {team.data ? (
          <div className="px-3 pb-3">
            <NumberedPagination page={page} perPage={team.data.pagination.perPage} total={team.data.pagination.total} onPage={setPage} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
