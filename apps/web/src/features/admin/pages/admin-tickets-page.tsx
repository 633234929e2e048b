import { TICKET_STATUSES } from '@app/core/statuses';
import { formatDateTimeShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PageHeader } from '../../../components/ui/page-header';
import { admin } from '@app/core/contracts/admin';
import { errorMessage } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { ticketsQuery, useAdminAction, type AdminTicket } from '../api/admin-api';
import { AdminTable, StatusFilter, type Column } from '../components/admin-table';
import { useAdminList } from '../components/use-admin-list';

const COLUMNS: Column<AdminTicket>[] = [
  { header: 'Created', cell: (t) => formatDateTimeShort(t.createdAt) },
  { header: 'User', cell: (t) => <span className="font-mono">{t.user.username}</span> },
  { header: 'Subject', cell: (t) => <span className="capitalize">{t.type}</span> },
  { header: 'Message', cell: (t) => <span className="line-clamp-2 max-w-xs text-slate-300">{t.message}</span>, className: 'text-slate-200' },
  {
    header: 'Status',
    cell: (t) => <StatusBadge kind="ticket" status={t.status} />,
  },
];

export default function AdminTicketsPage() {
  const list = useAdminList('tickets', { status: 'open' });
  const [open, setOpen] = useState<AdminTicket | null>(null);
  const [remark, setRemark] = useState('');
  const rows = useQuery(ticketsQuery(list.filter.status, list.page));
  const close = useAdminAction((b: { id: string; remark: string }) => call(admin.closeTicket, { params: { id: b.id }, body: { adminRemark: b.remark } }));
  // A reply leaves the ticket 'answered' (the user may answer back); closing ends it. Both mail the user.
  const reply = useAdminAction((b: { id: string; remark: string }) => call(admin.replyTicket, { params: { id: b.id }, body: { message: b.remark } }));
  const busy = close.isPending || reply.isPending;
  const submit = async (action: 'reply' | 'close') => {
    if (!open) return;
    try {
      const res = await (action === 'close' ? close : reply).mutateAsync({ id: open.id, remark: remark.trim() });
      toast.success(res.message ?? (action === 'close' ? 'Ticket closed' : 'Reply sent'));
      setOpen(null);
      setRemark('');
    } catch (err) {
      toast.error(errorMessage(err, action === 'close' ? 'Failed to close the ticket' : 'Failed to send the reply'));
    }
  };
  return (
    <div>
      <PageHeader title="Support tickets" subtitle="Answer and close tickets" action={<StatusFilter list={list} options={TICKET_STATUSES} />} />
      <AdminTable<AdminTicket> list={list} query={rows} empty="No tickets" onRow={setOpen} columns={COLUMNS} />
      <Modal
        open={open !== null}
        onClose={() => setOpen(null)}
        title={open ? `Ticket #${open.id}` : 'Ticket'}
        description={open ? `${open.user.name} (${open.user.email}) · ${open.type}` : undefined}
      >
        {open ? (
          <div className="space-y-3">
            <p className="whitespace-pre-wrap break-words rounded-xl bg-surface-900 p-3 text-sm text-slate-100">{open.message}</p>
            {open.replies.length ? (
              <ol className="space-y-2 text-sm" aria-label="Conversation">
                {open.replies.map((r, i) => (
                  <li key={i} className={r.author === 'admin' ? 'rounded-xl border border-brand-500/30 p-3' : 'rounded-xl bg-surface-900 p-3'}>
                    <p className="text-xs text-slate-400">
                      {r.author === 'admin' ? 'Support' : open.user.username} · {formatDateTimeShort(r.createdAt)}
                    </p>
                    <p className="mt-0.5 whitespace-pre-wrap break-words text-slate-100">{r.message}</p>
                  </li>
                ))}
              </ol>
            ) : null}
            {open.status === 'closed' ? (
              <p className="text-sm text-slate-300">
                <span className="text-slate-400">Remark: </span>
                {open.adminRemark || 'No remarks provided'}
              </p>
            ) : (
              <>
                <label htmlFor="admin-remark" className="label">
                  Remark for the user
                </label>
                <textarea id="admin-remark" rows={4} className="input" value={remark} onChange={(e) => setRemark(e.target.value)} />
                <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                  <Button variant="secondary" onClick={() => setOpen(null)}>
                    Cancel
                  </Button>
                  <Button variant="outline" disabled={!remark.trim() || busy} onClick={() => void submit('close')}>
                    {close.isPending ? 'Processing...' : 'Close ticket'}
                  </Button>
                  <Button disabled={!remark.trim() || busy} onClick={() => void submit('reply')}>
                    {reply.isPending ? 'Processing...' : 'Send reply'}
                  </Button>
                </div>
              </>
            )}
          </div>
        ) : null}
      </Modal>
    </div>
  );
}
