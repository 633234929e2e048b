import { csvExports } from '@app/core/contracts/exports';
import { PAYMENT_STATUSES } from '@app/core/statuses';
import { downloadFile } from '../../../lib/download';
import { formatAmount, formatDateTimeShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { PageHeader } from '../../../components/ui/page-header';
import { presentPayment } from '../../../lib/payment-status';
import { paymentsQuery, type AdminPayment } from '../api/admin-api';
import { AdminTable, StatusFilter } from '../components/admin-table';

export default function AdminPaymentsPage() {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const rows = useQuery(paymentsQuery(status, page));
  return (
    <div>
      <PageHeader
        title="Payments"
        subtitle="Deposits through the gateway"
        action={<StatusFilter value={status} onChange={(v) => (setStatus(v), setPage(1))} options={PAYMENT_STATUSES} />}
      />
      <AdminTable<AdminPayment>
        onDownload={() => downloadFile(csvExports.admin, { query: { list: 'payments', status } })}
        query={rows}
        page={page}
        onPage={setPage}
        empty="No payments"
        columns={[
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
                <Badge tone={presentPayment(p.status).tone}>{p.status.replace(/_/g, ' ')}</Badge>
                {p.needs_review ? <Badge tone="pink">review</Badge> : null}
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}
