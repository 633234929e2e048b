import { csvExports } from '@app/core/contracts/exports';
import { downloadFile } from '../../../lib/download';
import { formatDateTimeShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { auditQuery, type AdminAuditEntry } from '../api/admin-api';
import { AdminTable } from '../components/admin-table';

const json = (v: unknown) => (v === null || v === undefined ? '-' : JSON.stringify(v));

export default function AdminAuditPage() {
  const [page, setPage] = useState(1);
  const rows = useQuery(auditQuery(page));
  return (
    <div>
      <PageHeader title="Audit log" subtitle="Every admin action: who, what, when, before and after" />
      <AdminTable<AdminAuditEntry>
        onDownload={() => downloadFile(csvExports.admin, { query: { list: 'audit' } })}
        query={rows}
        page={page}
        onPage={setPage}
        empty="No admin actions yet"
        columns={[
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
        ]}
      />
    </div>
  );
}
