import type { TTeamMember } from '@app/core/contracts';
import { UNVERIFIED_MEMBER_LABEL } from '@app/core/constants';
import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { LayoutDashboard } from 'lucide-react';
import { useState } from 'react';
import { StatusBadge } from '../../../components/status-badge';
import { PagedQueryTable } from '../../../components/paged-query-table';
import { HeaderLink } from '../../../components/ui/header-link';
import { PageHeader } from '../../../components/ui/page-header';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { useErrorToast } from '../../../lib/use-error-toast';
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
  useErrorToast(team, 'Failed to fetch team members');
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
        <PagedQueryTable<TTeamMember>
          query={team}
          errorText="Failed to fetch team members"
          page={page}
          onPage={setPage}
          empty="No team members found"
          rowKey={(m) => m.username ?? `unverified:${m.createdAt}:${m.name}`}
          cols={[
            { header: 'Avatar', cell: (m) => <Avatar m={m} /> },
            {
              header: 'Username',
              // A member who has not verified the e-mail yet shows no username (the server sends none).
              cell: (m) => (m.username ? <span className="font-mono">{m.username}</span> : <span className="text-slate-500">{UNVERIFIED_MEMBER_LABEL}</span>),
            },
            { header: 'Name', cell: (m) => m.name },
            { header: 'Date', cell: (m) => formatDateLong(m.createdAt) },
            { header: 'Status', cell: (m) => <StatusBadge kind="user" status={m.status} /> },
          ]}
        />
      </div>
    </div>
  );
}
