import type { TIncomeItem } from '@app/core/contracts';
import { abbreviateAmount, formatAmount, formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { Gift, TrendingUp, Users } from 'lucide-react';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { toldGlobally } from '../../../lib/api-client';
import { PagedQueryTable } from '../../../components/paged-query-table';
import { PageHeader } from '../../../components/ui/page-header';
import { StatCard } from '../../../components/ui/stat-card';
import { TabList } from '../../../components/ui/tab-list';
import { settingsQueryOptions, userInfoQueryOptions } from '../../../lib/shared-queries';
import { csvExports } from '@app/core/contracts/exports';
import { HistoryToolbar } from '../../../components/history-toolbar';
import { downloadFile } from '../../../lib/download';
import { useHistoryParams } from '../../../lib/history-range';
import { incomeHistoryQueryOptions } from '../api/income-api';
import { IncomeChart } from '../components/income-chart';
import { RewardLevels } from '../components/reward-levels';

const TABS = [
  { key: 'roi', type: 1, label: 'ROI Income', empty: 'No ROI income history found', field: 'roi_income', icon: TrendingUp },
  { key: 'referral', type: 2, label: 'Referral Income', empty: 'No referral income history found', field: 'direct_referral_income', icon: Users },
  { key: 'reward', type: 3, label: 'Reward Income', empty: 'No reward income history found', field: 'reward_income', icon: Gift },
] as const;

export default function IncomePage() {
  // Tab, page and date range live in the URL (issue 32, item 19).
  const params = useHistoryParams<(typeof TABS)[number]['key']>('roi');
  const tab = TABS.find((t) => t.key === params.tab) ?? TABS[0];
  const { page, range } = params;
  const info = useQuery(userInfoQueryOptions());
  const settings = useQuery(settingsQueryOptions());
  const history = useQuery(incomeHistoryQueryOptions(tab.type, page, range));
  useEffect(() => {
    if (history.isError && !toldGlobally(history.error)) toast.error('Failed to fetch income history');
  }, [history.isError, history.error]);

  const banner =
    tab.key === 'roi'
      ? `Earn ${settings.data?.roi_income_percentage ?? 0.5}% of every stake each day, until it reaches ${settings.data?.stake_cap_percentage ?? 200}%.`
      : tab.key === 'referral'
        ? `Earn ${settings.data?.direct_referral_percentage ?? 5}% on every stake your direct referrals make, paid at once.`
        : 'Reach a level with your own and your directs’ investment and its reward is paid once.';

  return (
    <div className="space-y-4">
      <PageHeader title="Income Dashboard" subtitle="Track all your earnings here" />
      <div className="grid grid-cols-2 gap-3">
        <StatCard
          label="Total Income"
          value={info.data ? `$${abbreviateAmount(info.data.user_detail.total_income)}` : '...'}
          icon={TrendingUp}
          testId="total-income"
        />
        <StatCard label={tab.label} value={info.data ? `$${abbreviateAmount(info.data.user_detail[tab.field])}` : '...'} icon={tab.icon} testId="tab-income" />
      </div>
      <IncomeChart />
      {/* On a phone the columns are sized by their labels, so 'Referral Income' keeps one line at 390 px
          (only a narrower screen wraps it); from 640 px there is room for three equal tabs. */}
      <TabList
        label="Income type"
        tabs={TABS}
        selected={tab.key}
        onSelect={params.setTab}
        className="grid grid-cols-[repeat(3,auto)] gap-1 rounded-xl bg-surface-800 p-1 sm:grid-cols-3"
        tabClassName="min-h-11 rounded-lg px-1.5 py-2 text-xs font-semibold transition sm:px-2 sm:text-sm"
      />
      <div className="flex items-start gap-3 rounded-2xl border border-brand-500/20 bg-brand-500/10 p-4 text-sm text-brand-100">
        <tab.icon className="mt-0.5 h-5 w-5 shrink-0 text-brand-300" aria-hidden />
        <p>{banner}</p>
      </div>
      <section className="card p-0">
        <HistoryToolbar range={params} onDownload={() => downloadFile(csvExports.user, { query: { list: 'income', income_type: tab.type, ...range } })} />
        <PagedQueryTable<TIncomeItem>
          query={history}
          errorText="Failed to fetch income history"
          page={page}
          onPage={params.setPage}
          empty={tab.empty}
          rowKey={(r) => r.id}
          cols={[
            // ROI is dated by the day it is for, as the chart above dates it (a catch-up run credits past days).
            { header: 'Date', cell: (r) => formatDateLong(r.for_date ? `${r.for_date}T00:00:00Z` : r.createdAt) },
            { header: 'Amount', cell: (r) => <span className="font-semibold text-emerald-300">+${formatAmount(r.amount)}</span> },
            { header: 'Details', cell: (r) => <span className="text-slate-400">{r.note}</span>, className: 'text-slate-400' },
          ]}
        />
      </section>
      {tab.key === 'reward' ? <RewardLevels /> : null}
    </div>
  );
}
