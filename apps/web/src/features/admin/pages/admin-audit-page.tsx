import { formatDateTimeShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/page-header';
import { auditQuery, type AdminAuditEntry } from '../api/admin-api';
import { AdminTable, type Column } from '../components/admin-table';
import { useAdminList } from '../components/use-admin-list';

const json = (v: unknown) => (v === null || v === undefined ? '-' : JSON.stringify(v));

const COLUMNS: Column<AdminAuditEntry>[] = [
  { header: 'When', cell: (e) => formatDateTimeShort(e.createdAt) },
  { header: 'Admin', cell: (e) => e.admin ?? 'system' },
  { header: 'Action', cell: (e) => <span className="font-mono text-xs">{e.action}</span> },
  { header: 'Target', cell: (e) => (e.targetType ? `${e.targetType} #${e.targetId}` : '-') },
  {
    header: 'Before',
    cell: (e) => <code className="block max-w-xs break-all text-xs text-slate-400">{json(e.before)}</code>,
    className: 'text-slate-200',
  },
  {
    header: 'After',
    cell: (e) => <code className="block max-w-xs break-all text-xs text-slate-300">{json(e.after)}</code>,
    className: 'text-slate-200',
  },
];

export default function AdminAuditPage() {
  const list = useAdminList('audit', {});
  const rows = useQuery(auditQuery(list.page));
  return (
    <div>
      <PageHeader title="Audit log" subtitle="Every admin action: who, what, when, before and after" />
      <AdminTable list={list} query={rows} empty="No admin actions yet" columns={COLUMNS} />
    </div>
  );
}
