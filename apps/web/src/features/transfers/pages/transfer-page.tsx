import { LOOKUP_DEBOUNCE_MS } from '@app/core/constants';
import { formatAmount } from '@app/core/format';
import { ZUsername } from '@app/core/schemas/auth';
import { formNumber } from '@app/core/schemas/fields';
import { ZTransferAmount, ZTransferType } from '@app/core/schemas/money-ops';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, History, Loader2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { BalanceHelp, BalanceLine } from '../../../components/balance-help';
import { FieldFrame, TextField } from '../../../components/ui/form-field';
import { HeaderLink } from '../../../components/ui/header-link';
import { PageHeader } from '../../../components/ui/page-header';
import { ReviewDialog, reviewState, type ReviewRow } from '../../../components/ui/review-dialog';
import { SubmitButton } from '../../../components/ui/submit-button';
import { RefreshError } from '../../../components/ui/states';
import { asOf, LoadError, StaleFormNote, useFigures } from '../../../components/load-error';
import { ApiError, errorMessage, toldGlobally } from '../../../lib/api-client';
import { walletQueryOptions } from '../../../lib/shared-queries';
import { checkUsername, useCreateTransfer } from '../api/transfers-api';

type Receiver = { state: 'idle' } | { state: 'checking' } | { state: 'ok'; name: string; username: string };

export default function TransferPage() {
  // The transfer screen reads the wallet fresh on every visit (spec section 7).
  const wallet = useQuery({ ...walletQueryOptions(), staleTime: 0, gcTime: 0, refetchOnMount: 'always' });
  const create = useCreateTransfer();
  const [receiver, setReceiver] = useState<Receiver>({ state: 'idle' });
  const [type, setType] = useState<'deposit' | 'withdraw'>('deposit');
  // Until the wallet is read there is no form and no "Available: 0.00" (issue 47): the 0 is only the schema's bound.
  const figures = useFigures(wallet);
  const available = type === 'deposit' ? (wallet.data?.deposit_balance ?? 0) : (wallet.data?.balance ?? 0);
  const schema = useMemo(
    () =>
      z.object({
        type: ZTransferType,
        username: ZUsername,
        amount_usd: formNumber(ZTransferAmount.refine((v) => v <= available, 'Insufficient balance')),
      }),
    [available],
  );
  const form = useForm<z.input<typeof schema>, unknown, z.infer<typeof schema>>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: { type: 'deposit', username: '', amount_usd: '' },
  });
  const { errors } = form.formState;
  const username = form.watch('username').trim().toUpperCase();

  useEffect(() => {
    if (wallet.isError && !toldGlobally(wallet.error)) toast.error('Error fetching username data');
  }, [wallet.isError, wallet.error]);

  // Verify the receiver 500 ms after the last keystroke.
  useEffect(() => {
    setReceiver({ state: 'idle' });
    if (!/^[A-Z0-9]{9}$/.test(username)) return;
    let live = true;
    setReceiver({ state: 'checking' });
    const t = setTimeout(() => {
      checkUsername(username)
        .then((res) => {
          if (!live) return;
          if (!res.success || !res.data) throw new ApiError(res.message || 'Failed to verify username', 400);
          setReceiver({ state: 'ok', name: res.data.userName, username: res.data.username });
          form.clearErrors('username');
          toast.success(`Receiver found: ${res.data.username}`);
        })
        .catch((err: unknown) => {
          if (!live) return;
          setReceiver({ state: 'idle' });
          form.setError('username', { message: errorMessage(err, 'Failed to verify username') });
        });
    }, LOOKUP_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [username, form]);

  const [review, setReview] = useState<z.infer<typeof schema> | null>(null);
  const onSubmit = form.handleSubmit((v) => {
    if (receiver.state !== 'ok') {
      form.setError('username', { message: 'Please enter a valid username' });
      return;
    }
    setReview(v);
  });

  const confirm = async () => {
    if (!review) return;
    const v = review;
    try {
      const res = await create.mutateAsync({ username: v.username, amount_usd: v.amount_usd, type: v.type });
      setReview(null);
      toast.success(res.message || 'Transfer successful');
      form.reset({ type: v.type, username: '', amount_usd: '' });
      setReceiver({ state: 'idle' });
    } catch (err) {
      setReview(null);
      if (err instanceof ApiError) for (const [k, m] of Object.entries(err.errors)) form.setError(k as 'amount_usd', { message: m });
      toast.error(errorMessage(err, 'Transfer failed'));
    }
  };
  const walletName = (t: 'deposit' | 'withdraw') => (t === 'deposit' ? 'Deposit Wallet' : 'Withdraw Wallet');
  const reviewRows: ReviewRow[] = review
    ? [
        { label: 'To', value: receiver.state === 'ok' ? `${receiver.name} (${receiver.username})` : review.username.toUpperCase(), strong: true },
        { label: 'Amount', value: `${formatAmount(review.amount_usd)} USDT`, strong: true },
        { label: 'From', value: walletName(review.type) },
        { label: 'Fee', value: '0.00 USDT' },
        { label: 'They receive', value: `${formatAmount(review.amount_usd)} USDT in their ${walletName(review.type)}` },
      ]
    : [];

  const header = (
    <PageHeader
      title="Transfer Crypto - Transfer crypto to your buddies"
      action={
        <HeaderLink to="/transfer-history" icon={History}>
          History
        </HeaderLink>
      }
    />
  );
  if (figures.state === 'failed' || figures.state === 'offline')
    return (
      <div className="space-y-4">
        {header}
        <LoadError
          title="Failed to fetch wallet information"
          what="Your balance"
          state={figures.state}
          error={figures.error}
          onRetry={figures.retry}
          busy={figures.busy}
        />
      </div>
    );
  const live = figures.state === 'live';

  return (
    <div className="space-y-4">
      {header}
      {figures.online ? <RefreshError query={wallet} errorText="Failed to fetch wallet information" /> : null}
      <form onSubmit={onSubmit} noValidate className="card">
        {/* Shut while the balance is loading or is not a fresh answer (offline, a failed refresh). */}
        <fieldset disabled={!live} className="min-w-0 space-y-4" data-testid="transfer-form">
          <FieldFrame id="transfer-type" label="Transfer Type">
            <select
              id="transfer-type"
              className="input"
              {...form.register('type', {
                onChange: (e: React.ChangeEvent<HTMLSelectElement>) => {
                  setType(e.target.value === 'withdraw' ? 'withdraw' : 'deposit');
                  if (form.getValues('amount_usd') !== '') void form.trigger('amount_usd');
                },
              })}
            >
              <option value="deposit">Deposit Wallet</option>
              <option value="withdraw">Withdraw Wallet</option>
            </select>
          </FieldFrame>
          <TextField
            id="transfer-username"
            label="User name"
            className="uppercase"
            maxLength={9}
            autoComplete="off"
            placeholder="9-character username"
            error={errors.username?.message}
            after={
              errors.username ? null : receiver.state === 'checking' ? (
                <p className="mt-1 flex items-center gap-1 text-xs text-slate-400">
                  <Loader2 className="h-3 w-3 animate-spin" aria-hidden /> Checking username...
                </p>
              ) : receiver.state === 'ok' ? (
                <p className="mt-1 flex items-center gap-1 text-xs text-emerald-400">
                  <CheckCircle2 className="h-3 w-3" aria-hidden /> {receiver.name}
                </p>
              ) : null
            }
            {...form.register('username')}
          />
          <TextField
            id="transfer-amount"
            label="Amount"
            labelAside={
              <button
                type="button"
                className="-my-2.5 -mr-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 text-xs font-semibold text-brand-400 hover:underline"
                onClick={() => form.setValue('amount_usd', String(available), { shouldValidate: true })}
              >
                All
              </button>
            }
            inputMode="decimal"
            step="0.01"
            placeholder="Minimum 10 USDT"
            error={errors.amount_usd?.message}
            describedBy="transfer-available"
            after={
              <>
                <p id="transfer-available" className="mt-1 text-xs text-slate-400" data-testid="transfer-available">
                  {wallet.data === undefined ? 'Available: …' : `Available: ${formatAmount(available)} USDT${asOf(figures.state, figures.at)}`}
                </p>
                <BalanceLine kind={type === 'deposit' ? 'deposit' : 'income'} />
                <BalanceHelp className="mt-1" />
              </>
            }
            {...form.register('amount_usd')}
          />
          <SubmitButton busy={create.isPending} busyLabel="Processing..." disabled={receiver.state !== 'ok'}>
            Transfer
          </SubmitButton>
          {figures.state === 'stale' ? <StaleFormNote online={figures.online} checking={wallet.isFetching} /> : null}
        </fieldset>
      </form>
      <ReviewDialog
        {...reviewState(review, setReview, confirm, create.isPending)}
        title="Review your transfer"
        confirmLabel="Confirm transfer"
        rows={reviewRows}
      >
        <p>A transfer cannot be reversed. Check the username and the name above before you confirm.</p>
      </ReviewDialog>
    </div>
  );
}
