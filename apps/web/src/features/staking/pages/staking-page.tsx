import { STAKE_MIN_USD } from '@app/core/constants';
import { abbreviateAmount, formatAmount } from '@app/core/format';
import { microToNumber, percentOf, toMicro } from '@app/core/money';
import { formNumber } from '@app/core/schemas/fields';
import { ZStakeAmount } from '@app/core/schemas/money-ops';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { History, Layers, Wallet } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { BalanceHelp, BalanceLine } from '../../../components/balance-help';
import { HeaderLink } from '../../../components/ui/header-link';
import { PageHeader } from '../../../components/ui/page-header';
import { ReviewDialog } from '../../../components/ui/review-dialog';
import { SubmitButton } from '../../../components/ui/submit-button';
import { StatCard } from '../../../components/ui/stat-card';
import { staking } from '@app/core/contracts/money';
import { RefreshError } from '../../../components/ui/states';
import { asOf, LoadError, StaleFormNote, useFigures } from '../../../components/load-error';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/call';
import { settingsQueryOptions, walletQueryOptions } from '../../../lib/shared-queries';
import { useCreateStake } from '../api/staking-api';

export default function StakingPage() {
  const wallet = useQuery(walletQueryOptions());
  const settings = useQuery(settingsQueryOptions());
  const create = useCreateStake();
  // The deposit balance is the page's figure: unread, the page says so instead of $0 and has no form (issue 47).
  const figures = useFigures(wallet);
  const live = figures.state === 'live';
  const balance = wallet.data?.deposit_balance ?? 0;
  const schema = useMemo(() => z.object({ amount_usd: formNumber(ZStakeAmount.refine((v) => v <= balance, 'Insufficient balance')) }), [balance]);
  const form = useForm<{ amount_usd: unknown }, unknown, { amount_usd: number }>({ resolver: zodResolver(schema), defaultValues: { amount_usd: '' } });
  const { errors } = form.formState;
  const enough = balance >= STAKE_MIN_USD;

  const [review, setReview] = useState<number | null>(null);
  const onSubmit = form.handleSubmit(({ amount_usd }) => setReview(amount_usd));

  const confirm = async () => {
    if (review === null) return;
    const amount_usd = review;
    try {
      await create.mutateAsync(amount_usd);
      setReview(null);
      toast.success('Staking successful!');
      form.reset({ amount_usd: '' });
    } catch (err) {
      setReview(null);
      const message = errorMessage(err, 'Staking failed');
      toast.error(message);
      const fieldError = fieldErrorsOf(staking.create, err).amount_usd;
      if (fieldError) form.setError('amount_usd', { message: fieldError });
    }
  };

  // The terms this stake will keep (server.md section 4), in exact micro-units.
  const terms = (() => {
    if (review === null || !settings.data) return null;
    const amount = toMicro(review) ?? 0n;
    const { roi_income_percentage: roi, stake_cap_percentage: cap } = settings.data;
    return { daily: microToNumber(percentOf(amount, roi)), total: microToNumber(percentOf(amount, cap)), roi, cap, days: Math.ceil(cap / roi) };
  })();

  return (
    <div className="space-y-4">
      <PageHeader
        title="Staking"
        subtitle={
          settings.data ? `Earn ${settings.data.roi_income_percentage}% every day, up to ${settings.data.stake_cap_percentage}%` : 'Stake USDT and earn daily'
        }
        action={
          <HeaderLink to="/staking/history" icon={History}>
            History
          </HeaderLink>
        }
      />
      {figures.state === 'failed' || figures.state === 'offline' ? (
        <LoadError
          title="Failed to fetch wallet information"
          what="Your balance"
          state={figures.state}
          error={figures.error}
          onRetry={figures.retry}
          busy={figures.busy}
        />
      ) : (
        <>
          {figures.online ? <RefreshError query={wallet} errorText="Failed to fetch wallet information" /> : null}
          <div className="grid grid-cols-2 gap-3">
            <StatCard
              label="Total Staked"
              value={wallet.data ? `$${abbreviateAmount(wallet.data.total_staked)}` : '...'}
              icon={Layers}
              testId="staking-total"
              note={<BalanceLine kind="staked" />}
            />
            <StatCard
              label="USDT Balance"
              value={wallet.data ? `$${abbreviateAmount(balance)}` : '...'}
              icon={Wallet}
              testId="staking-balance"
              note={<BalanceLine kind="deposit" />}
            />
          </div>
          <BalanceHelp />
          <form onSubmit={onSubmit} noValidate className="card">
            {/* Shut while the balance is loading or is not a fresh answer (offline, a failed refresh). */}
            <fieldset disabled={!live} className="min-w-0 space-y-4" data-testid="stake-form">
              <div>
                <label htmlFor="stake-amount" className="label">
                  Amount
                </label>
                <input
                  id="stake-amount"
                  inputMode="numeric"
                  placeholder="Minimum 50, in steps of 10"
                  className="input"
                  aria-invalid={errors.amount_usd ? true : undefined}
                  aria-describedby="stake-amount-msg"
                  {...form.register('amount_usd')}
                />
                {errors.amount_usd ? (
                  <p id="stake-amount-msg" className="field-error">
                    {errors.amount_usd.message}
                  </p>
                ) : (
                  <p id="stake-amount-msg" className="mt-1 text-xs text-slate-400">
                    {wallet.data ? `Available: $${formatAmount(balance)}${asOf(figures.state, figures.at)}` : 'Available: ...'}
                  </p>
                )}
              </div>
              <SubmitButton busy={create.isPending} busyLabel="Processing..." disabled={!enough}>
                Stake
              </SubmitButton>
              {!enough && live ? <p className="text-center text-sm text-amber-300">Not enough balance</p> : null}
              {figures.state === 'stale' ? <StaleFormNote online={figures.online} checking={wallet.isFetching} /> : null}
            </fieldset>
          </form>
        </>
      )}
      <ReviewDialog
        open={review !== null}
        title="Review your stake"
        confirmLabel="Confirm stake"
        busy={create.isPending}
        onClose={() => setReview(null)}
        onConfirm={confirm}
        rows={[
          { label: 'Amount', value: `$${formatAmount(review ?? 0)}`, strong: true },
          { label: 'From', value: 'Deposit Balance' },
          ...(terms
            ? [
                { label: 'Daily ROI', value: `${terms.roi}% ≈ $${formatAmount(terms.daily)} a day` },
                { label: 'Earns up to', value: `${terms.cap}% = $${formatAmount(terms.total)}`, strong: true },
              ]
            : []),
        ]}
        notes={
          <>
            <p>The amount is locked in the stake and is not returned separately: the cap includes it.</p>
            {terms ? (
              <p>{`ROI is paid daily into your income balance (the one you can withdraw) until it reaches ${terms.cap}% of the amount, about ${terms.days} days.`}</p>
            ) : null}
            <p>These terms stay with this stake even if the rates change later.</p>
          </>
        }
      />
    </div>
  );
}
