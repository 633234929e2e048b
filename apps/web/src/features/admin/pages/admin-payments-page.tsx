import { PAYMENT_STATUSES } from '@app/core/statuses';
import { formatAmount, formatDateTimeShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../../components/ui/badge';
import { StatusBadge } from '../../../components/status-badge';
import { PageHeader } from '../../../components/ui/page-header';
import { paymentsQuery, type AdminPayment } from '../api/admin-api';
import { AdminTable, StatusFilter, type Column } from '../components/admin-table';
import { useAdminList } from '../components/use-admin-list';

const COLUMNS: Column<AdminPayment>[] = [
  { header: 'Created', cell: (p) => formatDateTimeShort(p.createdAt) },
  { header: 'Payment', cell: (p) => <span className="font-mono text-xs">{p.payment_id}</span> },
  { header: 'User', cell: (p) => <span className="font-mono">{p.user.username}</span> },
  { header: 'Currency', cell: (p) => p.pay_currency },
  { header: 'Requested', cell: (p) => `$${formatAmount(p.price_amount)}` },
  { header: 'Received', cell: (p) => formatAmount(p.actually_paid) },
  { header: 'Credited', cell: (p) => `$${formatAmount(p.credited_amount)}` },
  {
    header: 'Status',
    cell: (p) => (
      <span className="flex items-center gap-1">
        <StatusBadge kind="payment" status={p.status} />
        {p.needs_review ? <Badge tone="pink">Review</Badge> : null}
      </span>
    ),
  },
];

export default function AdminPaymentsPage() {
  const list = useAdminList('payments', { status: '' });
  const rows = useQuery(paymentsQuery(list.filter.status, list.page));
  return (
    <div>
      <PageHeader title="Payments" subtitle="Deposits through the gateway" action={<StatusFilter list={list} options={PAYMENT_STATUSES} />} />
      <AdminTable list={list} query={rows} empty="No payments" columns={COLUMNS} />
    </div>
  );
}
