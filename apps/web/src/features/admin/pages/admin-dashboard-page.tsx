import { formatAmount } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { errorMessage } from '../../../lib/api-client';
import { statsQuery } from '../api/admin-api';
import { StatCard } from '../components/admin-table';
import { DailyChart } from '../components/daily-chart';

export default function AdminDashboardPage() {
  const stats = useQuery(statsQuery());
  return (
    <div>
      <PageHeader title="Dashboard" subtitle="The platform's money and people at a glance" />
      {stats.isPending ? (
        <LoadingState />
      ) : stats.isError ? (
        <ErrorState text={errorMessage(stats.error, 'Failed to load statistics')} />
      ) : (
        <div className="space-y-4">
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <StatCard label="Users" value={stats.data.users} hint={`${stats.data.active_users} active`} />
            <StatCard label="Deposits" value={`$${formatAmount(stats.data.total_deposits)}`} />
            <StatCard label="Total staked" value={`$${formatAmount(stats.data.total_staked)}`} />
            <StatCard label="Liabilities" value={`$${formatAmount(stats.data.liabilities)}`} hint="sum of user balances" />
            <StatCard
              label="Withdrawals pending"
              value={`$${formatAmount(stats.data.withdrawals_pending.amount)}`}
              hint={`${stats.data.withdrawals_pending.count} requests`}
            />
            <StatCard
              label="Withdrawals paid"
              value={`$${formatAmount(stats.data.withdrawals_paid.amount)}`}
              hint={`${stats.data.withdrawals_paid.count} paid`}
            />
          </div>
          <DailyChart data={stats.data.daily} />
        </div>
      )}
    </div>
  );
}
