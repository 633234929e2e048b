import { formatAmount, formatDateTimeShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { toast } from 'sonner';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { BackLink, PageHeader } from '../../../components/ui/page-header';
import { QueryState } from '../../../components/ui/states';
import { admin } from '@app/core/contracts/admin';
import { errorMessage } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { useAdminAction, userQuery, type AdminUserDetail } from '../api/admin-api';
import { StatCard } from '../components/admin-table';
import { ScrollX } from '../../../components/ui/scroll-x';
import type { StatusKind, StatusOf } from '../../../lib/status-presentation';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-400">{title}</h2>
      <ScrollX label={title}>{children}</ScrollX>
    </section>
  );
}

function MiniTable({ head, rows, empty }: { head: string[]; rows: ReactNode[][]; empty: string }) {
  if (!rows.length) return <p className="text-sm text-slate-400">{empty}</p>;
  return (
    <table className="w-full min-w-[520px] text-left text-sm">
      <thead className="text-xs text-slate-400">
        <tr>
          {head.map((h) => (
            <th key={h} className="py-1.5 pr-3 font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-white/5">
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((c, j) => (
              <td key={j} className="py-2 pr-3 align-top text-slate-200">
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A table's leading columns, header to cell, in order. */
type Columns<T> = Record<string, (record: T) => ReactNode>;

const STAKE_COLUMNS: Columns<AdminUserDetail['stakes'][number]> = {
  ID: (s) => s.id,
  Amount: (s) => formatAmount(s.amount),
  'ROI paid': (s) => formatAmount(s.roi_paid),
};
const PAYMENT_COLUMNS: Columns<AdminUserDetail['payments'][number]> = {
  Payment: (p) => p.payment_id,
  Amount: (p) => formatAmount(p.amount),
  Credited: (p) => formatAmount(p.credited),
};
const WITHDRAWAL_COLUMNS: Columns<AdminUserDetail['withdrawals'][number]> = {
  ID: (w) => w.id,
  Amount: (w) => formatAmount(w.amount),
  Network: (w) => w.network,
};

/** One table of the user's records, each row ending with the record's status (its badge) and when it was made. */
function RecordsSection<K extends StatusKind, T extends { status: StatusOf[K]; createdAt: string }>({
  title,
  kind,
  records,
  columns,
}: {
  title: string;
  kind: K;
  records: T[];
  columns: Columns<T>;
}) {
  const cells = Object.values(columns);
  return (
    <Section title={title}>
      <MiniTable
        head={[...Object.keys(columns), 'Status', 'Created']}
        empty={`No ${title.toLowerCase()}`}
        rows={records.map((r) => [...cells.map((cell) => cell(r)), <StatusBadge key="s" kind={kind} status={r.status} />, formatDateTimeShort(r.createdAt)])}
      />
    </Section>
  );
}

export default function AdminUserDetailPage() {
  const { id = '' } = useParams();
  const detail = useQuery(userQuery(id));
  const block = useAdminAction((b: { block: boolean }) => call(b.block ? admin.block : admin.unblock, { params: { id } }));
  // Blocking ends every session of the user at once: it is asked for twice, unblocking is not.
  const [confirmBlock, setConfirmBlock] = useState(false);
  const toggle = async (blockIt: boolean) => {
    try {
      const res = await block.mutateAsync({ block: blockIt });
      toast.success(res.message ?? 'Done');
    } catch (err) {
      toast.error(errorMessage(err, 'Action failed'));
    } finally {
      setConfirmBlock(false);
    }
  };
  return (
    <div>
      <PageHeader title="User detail" action={<BackLink to="/admin/users">Users</BackLink>} />
      <QueryState query={detail} errorText="Failed to load the user">
        {(data) => (
          <div className="space-y-4">
            <div className="card flex flex-wrap items-center justify-between gap-3">
              <div>
                <p className="text-lg font-semibold text-white">
                  {data.user.name} <span className="font-mono text-sm text-slate-400">{data.user.username}</span>
                </p>
                <p className="text-sm text-slate-400">
                  {data.user.email} · sponsor {data.user.referrer ?? '-'} · rank {data.user.eligible_level ? `L${data.user.eligible_level}` : 'No Rank'}
                </p>
              </div>
              <div className="flex items-center gap-2">
                <StatusBadge kind="user" status={data.user.status} />
                {data.user.is_admin ? null : data.user.status === 'blocked' ? (
                  <Button variant="secondary" disabled={block.isPending} onClick={() => void toggle(false)}>
                    Unblock
                  </Button>
                ) : (
                  <Button variant="danger" disabled={block.isPending} onClick={() => setConfirmBlock(true)}>
                    Block
                  </Button>
                )}
              </div>
            </div>
            <Modal
              open={confirmBlock}
              onClose={() => setConfirmBlock(false)}
              title={`Block ${data.user.username}?`}
              description="They cannot sign in until unblocked, and every session of theirs ends now."
            >
              <div className="mt-4 flex justify-end gap-2">
                <Button variant="secondary" onClick={() => setConfirmBlock(false)}>
                  Cancel
                </Button>
                <Button variant="danger" disabled={block.isPending} onClick={() => void toggle(true)}>
                  Block user
                </Button>
              </div>
            </Modal>
            <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              <StatCard label="Deposit balance" value={`$${formatAmount(data.balances.deposit)}`} />
              <StatCard label="Income balance" value={`$${formatAmount(data.balances.income)}`} />
              <StatCard label="Directs" value={data.team.total_directs} hint={`business $${formatAmount(data.team.total_direct_business)}`} />
              <StatCard label="Network" value={data.team.total_network} hint={`business $${formatAmount(data.team.team_business.amount)}`} />
            </div>
            <Section title="Ledger entries">
              <MiniTable
                head={['When', 'Kind', 'Key', 'Postings']}
                empty="No ledger entries"
                rows={data.ledger.map((e) => [
                  formatDateTimeShort(e.createdAt),
                  e.kind,
                  <span key="k" className="font-mono text-xs">
                    {e.key}
                  </span>,
                  <ul key="p" className="space-y-0.5 text-xs">
                    {e.postings.map((p, i) => (
                      <li key={i} className={p.amount >= 0 ? 'text-emerald-300' : 'text-red-300'}>
                        {p.account}: {p.amount >= 0 ? '+' : ''}
                        {formatAmount(p.amount)}
                      </li>
                    ))}
                  </ul>,
                ])}
              />
            </Section>
            <RecordsSection title="Stakes" kind="stake" records={data.stakes} columns={STAKE_COLUMNS} />
            <RecordsSection title="Payments" kind="payment" records={data.payments} columns={PAYMENT_COLUMNS} />
            <RecordsSection title="Withdrawals" kind="withdrawal" records={data.withdrawals} columns={WITHDRAWAL_COLUMNS} />
          </div>
        )}
      </QueryState>
    </div>
  );
}
