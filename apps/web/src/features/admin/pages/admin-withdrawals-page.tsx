import { WITHDRAWAL_STATUSES } from '@app/core/statuses';
import { formatAmount, formatDateTimeShort, shortenAddress } from '@app/core/format';
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
import { useAdminAction, withdrawalsQuery, type AdminWithdrawal } from '../api/admin-api';
import { AdminTable, StatusFilter } from '../components/admin-table';
import { useAdminList } from '../components/use-admin-list';

type Action = { kind: 'complete' | 'reject'; row: AdminWithdrawal } | null;

export default function AdminWithdrawalsPage() {
  const list = useAdminList('withdrawals', { status: 'pending' });
  const [action, setAction] = useState<Action>(null);
  const [text, setText] = useState('');
  const rows = useQuery(withdrawalsQuery(list.filter.status, list.page));
  const run = useAdminAction((b: { id: string; kind: 'complete' | 'reject'; text: string }) =>
    b.kind === 'complete'
      ? call(admin.completeWithdrawal, { params: { id: b.id }, body: { tx_hash: b.text } })
      : call(admin.rejectWithdrawal, { params: { id: b.id }, body: { reason: b.text } }),
  );
  const submit = async () => {
    if (!action) return;
    try {
      const res = await run.mutateAsync({ id: action.row.id, kind: action.kind, text: text.trim() });
      toast.success(res.message ?? 'Done');
      setAction(null);
      setText('');
    } catch (err) {
      toast.error(errorMessage(err, 'Action failed'));
    }
  };
  return (
    <div>
      <PageHeader title="Withdrawals" subtitle="Pay or refuse withdrawal requests" action={<StatusFilter list={list} options={WITHDRAWAL_STATUSES} />} />
      <AdminTable<AdminWithdrawal>
        list={list}
        query={rows}
        empty="No withdrawals"
        columns={[
          { header: 'Requested', cell: (w) => formatDateTimeShort(w.createdAt) },
          { header: 'User', cell: (w) => <span className="font-mono">{w.user.username}</span> },
          { header: 'Amount', cell: (w) => `$${formatAmount(w.amount)}` },
          { header: 'Pay out', cell: (w) => `$${formatAmount(w.receive_amount)} (fee ${formatAmount(w.fee)})` },
          { header: 'Network', cell: (w) => w.network },
          {
            header: 'Address',
            cell: (w) => (
              <span className="font-mono text-xs" title={w.wallet_address}>
                {shortenAddress(w.wallet_address)}
              </span>
            ),
          },
          {
            header: 'Status',
            cell: (w) => <StatusBadge kind="withdrawal" status={w.status} />,
          },
          {
            header: 'Action',
            cell: (w) =>
              w.status === 'pending' ? (
                <div className="flex gap-2">
                  <Button className="px-3 py-1.5 text-xs" onClick={() => setAction({ kind: 'complete', row: w })}>
                    Complete
                  </Button>
                  <Button variant="danger" className="px-3 py-1.5 text-xs" onClick={() => setAction({ kind: 'reject', row: w })}>
                    Reject
                  </Button>
                </div>
              ) : (
                <span className="font-mono text-xs text-slate-400">{w.tx_hash ? shortenAddress(w.tx_hash) : (w.reject_reason ?? '-')}</span>
              ),
          },
        ]}
      />
      <Modal
        open={action !== null}
        onClose={() => setAction(null)}
        title={action?.kind === 'complete' ? 'Complete withdrawal' : 'Reject withdrawal'}
        description={action ? `$${formatAmount(action.row.receive_amount)} to ${action.row.wallet_address} (${action.row.network})` : undefined}
      >
        <label htmlFor="admin-action-text" className="label">
          {action?.kind === 'complete' ? 'Payout transaction hash' : 'Reason (the full amount returns to the user)'}
        </label>
        <input id="admin-action-text" className="input" value={text} onChange={(e) => setText(e.target.value)} />
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setAction(null)}>
            Cancel
          </Button>
          <Button variant={action?.kind === 'reject' ? 'danger' : 'primary'} disabled={!text.trim() || run.isPending} onClick={() => void submit()}>
            {run.isPending ? 'Processing...' : action?.kind === 'complete' ? 'Mark as paid' : 'Reject and refund'}
          </Button>
        </div>
      </Modal>
    </div>
  );
}
