import { utcDay } from '@app/core/days';
import { formatAmount } from '@app/core/format';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { admin } from '@app/core/contracts/admin';
import { errorMessage } from '../../../lib/api-client';
import { call, fetchData } from '../../../lib/call';
import { useAdminAction } from '../api/admin-api';

export default function AdminOperationsPage() {
  const [date, setDate] = useState(utcDay());
  const roi = useAdminAction((body: { date: string }) => call(admin.runRoi, { body }));
  const [roiResult, setRoiResult] = useState<string | null>(null);
  const verify = useMutation({ mutationFn: fetchData(admin.verifyLedger) });

  const runRoi = async () => {
    try {
      const res = await roi.mutateAsync({ date });
      setRoiResult(`${res.data.credits} credits, $${formatAmount(res.data.total)} in total`);
      toast.success(res.message ?? 'ROI job finished');
    } catch (err) {
      toast.error(errorMessage(err, 'ROI job failed'));
    }
  };

  return (
    <div className="space-y-4">
      <PageHeader title="Jobs & Ledger" subtitle="Run the ROI accrual for a date and prove the books balance" />
      <section className="card space-y-3">
        <h2 className="text-base font-semibold text-white">ROI accrual</h2>
        <p className="text-sm text-slate-400">
          Credits every stake-day up to and including the date that is not yet credited. Running it twice credits nothing more.
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="roi-date" className="label">
              Date (UTC)
            </label>
            <input id="roi-date" type="date" className="input" value={date} onChange={(e) => setDate(e.target.value)} />
          </div>
          <Button disabled={roi.isPending || !date} onClick={() => void runRoi()}>
            {roi.isPending ? 'Processing...' : 'Run ROI job'}
          </Button>
        </div>
        {roiResult ? <p className="text-sm text-brand-300">{roiResult}</p> : null}
      </section>
      <section className="card space-y-3">
        <h2 className="text-base font-semibold text-white">Ledger verify</h2>
        <p className="text-sm text-slate-400">Every entry sums to zero, every cached balance equals its postings, no user balance is negative.</p>
        <Button variant="secondary" disabled={verify.isPending} onClick={() => verify.mutate()}>
          {verify.isPending ? 'Processing...' : 'Verify ledger'}
        </Button>
        {verify.isError ? <p className="text-sm text-red-400">{errorMessage(verify.error, 'Verify failed')}</p> : null}
        {verify.data ? (
          <div className={`rounded-xl border p-3 text-sm ${verify.data.ok ? 'border-emerald-500/30 bg-emerald-500/10' : 'border-red-500/30 bg-red-500/10'}`}>
            <p className="flex items-center gap-2 font-semibold">
              {verify.data.ok ? <CheckCircle2 className="h-5 w-5 text-emerald-400" aria-hidden /> : <XCircle className="h-5 w-5 text-red-400" aria-hidden />}
              {verify.data.ok ? 'The ledger balances' : 'The ledger has breaks'}
            </p>
            <p className="mt-1 text-slate-300">
              {verify.data.entries} entries, {verify.data.accounts} accounts; unbalanced {verify.data.unbalancedEntries.length}, mismatched{' '}
              {verify.data.mismatchedAccounts.length}, negative {verify.data.negativeUserAccounts.length}, income totals off{' '}
              {verify.data.mismatchedTotals.length}, stakes off {verify.data.mismatchedStakes.length}; all balances sum to {verify.data.totalOfAllBalances}.
            </p>
          </div>
        ) : null}
      </section>
    </div>
  );
}
