import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { StatusBadge } from '../../../components/status-badge';
import { PageHeader } from '../../../components/ui/page-header';
import { usersQuery, type AdminUserRow } from '../api/admin-api';
import { AdminTable } from '../components/admin-table';
import { useAdminList } from '../components/use-admin-list';

export default function AdminUsersPage() {
  const [text, setText] = useState('');
  const list = useAdminList('users', { q: '' });
  const navigate = useNavigate();
  const { setFilter } = list;
  useEffect(() => {
    const t = setTimeout(() => setFilter({ q: text.trim() }), 300);
    return () => clearTimeout(t);
  }, [text, setFilter]);
  const users = useQuery(usersQuery(list.filter.q, list.page));
  return (
    <div>
      <PageHeader title="Users" subtitle="Search by e-mail, name or username" />
      <label className="relative mb-4 block max-w-md">
        <span className="sr-only">Search users</span>
        <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
        <input className="input pl-9" placeholder="Search users" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <AdminTable<AdminUserRow>
        list={list}
        query={users}
        empty="No users found"
        onRow={(u) => void navigate(`/admin/users/${u.id}`)}
        columns={[
          { header: 'Username', cell: (u) => <span className="font-mono">{u.username}</span> },
          { header: 'Name', cell: (u) => u.name },
          { header: 'Email', cell: (u) => u.email },
          { header: 'Rank', cell: (u) => (u.eligible_level ? `L${u.eligible_level}` : '-') },
          {
            header: 'Status',
            cell: (u) => (
              // An admin's role is named beside the status (it replaced the status before, in the status's colour).
              <span className="flex items-center gap-1">
                <StatusBadge kind="user" status={u.status} />
                {u.is_admin ? <Badge tone="purple">Admin</Badge> : null}
              </span>
            ),
          },
          { header: 'Joined', cell: (u) => formatDateLong(u.createdAt) },
        ]}
      />
    </div>
  );
}
