import { WITHDRAW_PAGE_MIN_BALANCE_USD, WITHDRAW_STEP_USD, WITHDRAW_VALIDATE_DELAY_MS, type TWithdrawNetwork } from '@app/core/constants';
import { formatAmount } from '@app/core/format';
import { microToNumber, percentOf, toMicro } from '@app/core/money';
import { ZCreateWithdrawalRequest, type TCreateWithdrawalRequest } from '@app/core/schemas/money-ops';
import { TWO_FA_REQUIRED_MESSAGE } from '@app/core/schemas/security';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SubmitButton } from '../../../components/ui/submit-button';
import { FieldFrame, fieldAria, TextField, TwoFactorCodeField } from '../../../components/ui/form-field';
import { PageHeader } from '../../../components/ui/page-header';
import { ReviewDialog, reviewState, type ReviewRow } from '../../../components/ui/review-dialog';
import { LoadingState, RefreshError } from '../../../components/ui/states';
import { asOf, LoadError, StaleFormNote, useFigures } from '../../../components/load-error';
import { withdrawals } from '@app/core/contracts/money';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/call';
import { securityQueryOptions, settingsQueryOptions, walletQueryOptions } from '../../../lib/shared-queries';
import { useCreateWithdrawal } from '../api/withdraw-api';

type Field = 'amount_usd' | 'network' | 'wallet_address' | 'totp_code';
const NETWORKS: { value: TWithdrawNetwork; label: string }[] = [
  { value: 'BSC', label: 'BNB Smart Chain (BEP20)' },
  { value: 'POLYGON', label: 'Polygon' },
  { value: 'TRON', label: 'Tron (TRC20)' },
];

export default function WithdrawalPage() {
  const navigate = useNavigate();
  const wallet = useQuery(walletQueryOptions());
  const settings = useQuery(settingsQueryOptions());
  const create = useCreateWithdrawal();
  // With 2FA on, the server wants a code with every withdrawal (server.md section 9).
  // The server asking for it (2FA turned on elsewhere since the page loaded) shows the field too.
  const [codeAsked, setCodeAsked] = useState(false);
  const needsCode = useQuery(securityQueryOptions()).data?.two_factor_enabled === true || codeAsked;
  const [totp, setTotp] = useState('');
  const [network, setNetwork] = useState<TWithdrawNetwork>('BSC');
  const [address, setAddress] = useState('');
  const [quantity, setQuantity] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [touched, setTouched] = useState(false);
  const checked = useRef(false);
  // The balance and the fee are the page's figures: until both are known there is no form (issue
  // 47), never a 0.00 balance or a guessed fee. The zeros below are only the form's arithmetic.
  const figures = useFigures(wallet, settings);
  const balance = wallet.data?.balance ?? 0;
  const feePct = settings.data?.withdrawal_fee_percentage ?? 0;

  // The page needs a balance of at least 50 on entry (spec section 8). It is an entry rule: the
  // balance a successful withdrawal leaves behind must not bounce the person with a red error.
  // Only on an answer of this run: a copy kept on this device may be from before an income.
  useEffect(() => {
    if (!wallet.data || checked.current || !wallet.isSuccess || !wallet.isFetched) return;
    checked.current = true;
    if (wallet.data.balance < WITHDRAW_PAGE_MIN_BALANCE_USD) {
      toast.error('Your balance is less than $50. Redirecting to Wallet page...');
      void navigate('/wallet', { replace: true });
    }
  }, [wallet.data, wallet.isSuccess, wallet.isFetched, navigate]);

  const validate = () => {
    const amount = quantity.trim() === '' ? undefined : Number(quantity);
    const r = ZCreateWithdrawalRequest.safeParse({
      amount_usd: amount,
      network,
      wallet_address: address,
      token: 'USDT',
      ...(needsCode ? { totp_code: totp } : {}),
    });
    const next: Partial<Record<Field, string>> = {};
    if (!r.success) for (const i of r.error.issues) next[i.path[0] as Field] ??= i.message;
    if (!next.amount_usd && amount !== undefined && amount > balance) next.amount_usd = 'Insufficient balance';
    if (needsCode && !totp.trim()) next.totp_code ??= TWO_FA_REQUIRED_MESSAGE;
    setErrors(next);
    return { ok: r.success && !next.amount_usd && !next.totp_code, data: r.data };
  };

  // Field validation re-runs 300 ms after a change.
  useEffect(() => {
    if (!touched) return;
    const t = setTimeout(validate, WITHDRAW_VALIDATE_DELAY_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-validate when an input changes
  }, [quantity, address, network, totp, touched]);

  // The server's own rule in exact micro-units: fee = amount × fee% rounded down, receive = the rest.
  const amountMicro = toMicro(quantity.trim() === '' ? '0' : quantity) ?? 0n;
  const feeMicro = percentOf(amountMicro, feePct);
  const fee = microToNumber(feeMicro);
  const receive = microToNumber(amountMicro - feeMicro);

  const [review, setReview] = useState<TCreateWithdrawalRequest | null>(null);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    const v = validate();
    if (!v.ok || !v.data) return;
    setReview(v.data);
  };

  const confirm = async () => {
    if (!review) return;
    const body = review;
    setReview(null);
    try {
      const res = await create.mutateAsync(body);
      toast.success(res.message || 'Withdrawal request created successfully!');
      setQuantity('');
      setAddress('');
      setTotp('');
      setTouched(false);
      setErrors({});
    } catch (err) {
      const message = errorMessage(err, 'Withdrawal failed');
      toast.error(message);
      // The code field's errors come from the answer (the error table's field), never from matching its text.
      const fieldErrors: Partial<Record<Field, string>> = fieldErrorsOf(withdrawals.create, err);
      if (fieldErrors.totp_code) setCodeAsked(true);
      setErrors(fieldErrors);
    }
  };

  if (figures.state === 'loading') return <LoadingState />;
  if (figures.state === 'failed' || figures.state === 'offline')
    return (
      <div className="space-y-4">
        <PageHeader title="Withdraw" />
        <LoadError
          title={wallet.data === undefined ? 'Failed to fetch wallet information' : 'Failed to fetch settings'}
          what={wallet.data === undefined ? 'Your balance' : 'The withdrawal fee'}
          state={figures.state}
          error={figures.error}
          onRetry={figures.retry}
          busy={figures.busy}
        />
      </div>
    );
  const live = figures.state === 'live';

  const reviewRows: ReviewRow[] = review
    ? [
        { label: 'Amount', value: `${formatAmount(review.amount_usd)} USDT` },
        { label: `Fee (${feePct}%)`, value: `${formatAmount(fee)} USDT` },
        { label: 'You receive', value: `${formatAmount(receive)} USDT`, strong: true },
        { label: 'Network', value: NETWORKS.find((n) => n.value === review.network)?.label ?? review.network },
        { label: 'To address', value: <span className="font-mono text-xs">{review.wallet_address}</span>, strong: true },
      ]
    : [];

  return (
    <div className="space-y-4">
      <PageHeader title="Withdraw" subtitle={`Available: ${formatAmount(balance)} USDT${asOf(figures.state, figures.at)}`} />
      {/* Offline nothing is asked: the banner says so, and an error there would contradict the figure shown. */}
      {figures.online ? (
        wallet.isRefetchError ? (
          <RefreshError query={wallet} errorText="Failed to fetch wallet information" />
        ) : (
          <RefreshError query={settings} errorText="Failed to fetch settings" />
        )
      ) : null}
      <form onSubmit={submit} noValidate className="card">
        {/* A figure that is not a fresh answer (offline, the device's copy, a failed refresh) keeps the form shut. */}
        <fieldset disabled={!live} className="min-w-0 space-y-4" data-testid="withdraw-form">
          <FieldFrame id="wd-coin" label="Coin">
            <select id="wd-coin" className="input" value="USDT" disabled>
              <option value="USDT">USDT</option>
            </select>
          </FieldFrame>
          <FieldFrame id="wd-network" label="Network" error={errors.network}>
            <select
              id="wd-network"
              className="input"
              value={network}
              {...fieldAria('wd-network', errors.network)}
              onChange={(e) => {
                setNetwork(e.target.value as TWithdrawNetwork);
                setTouched(true);
              }}
            >
              {NETWORKS.map((n) => (
                <option key={n.value} value={n.value}>
                  {n.label}
                </option>
              ))}
            </select>
          </FieldFrame>
          <TextField
            id="wd-address"
            label="Address"
            className="font-mono"
            autoComplete="off"
            spellCheck={false}
            placeholder={network === 'TRON' ? 'T…' : '0x…'}
            value={address}
            error={errors.wallet_address}
            onChange={(e) => {
              setAddress(e.target.value.trim());
              setTouched(true);
            }}
          />
          <TextField
            id="wd-quantity"
            label="Quantity"
            labelAside={
              <button
                type="button"
                className="-my-2.5 -mr-2 inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 text-xs font-semibold text-brand-400 hover:underline"
                onClick={() => {
                  setQuantity(String(Math.floor(balance / WITHDRAW_STEP_USD) * WITHDRAW_STEP_USD));
                  setTouched(true);
                }}
              >
                All
              </button>
            }
            inputMode="decimal"
            placeholder="Minimum 10, in steps of 10"
            value={quantity}
            error={errors.amount_usd}
            onChange={(e) => {
              setQuantity(e.target.value.replace(/[^\d.]/g, ''));
              setTouched(true);
            }}
          />
          {needsCode ? (
            <TwoFactorCodeField
              id="wd-totp"
              label="Two-factor code"
              value={totp}
              error={errors.totp_code}
              onChange={(e) => {
                setTotp(e.target.value);
                setTouched(true);
              }}
            />
          ) : null}
          <dl className="space-y-1.5 rounded-xl bg-surface-900/70 p-3 text-sm">
            <div className="flex justify-between">
              <dt className="text-slate-400">Fee ({feePct}%)</dt>
              <dd className="text-slate-200" data-testid="wd-fee">
                {formatAmount(fee)} USDT
              </dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-slate-400">Receive amount</dt>
              <dd className="font-semibold text-white" data-testid="wd-receive">
                {formatAmount(receive)} USDT
              </dd>
            </div>
          </dl>
          <SubmitButton busy={create.isPending} busyLabel="Processing...">
            Withdraw
          </SubmitButton>
          {!live ? <StaleFormNote online={figures.online} checking={wallet.isFetching || settings.isFetching} /> : null}
        </fieldset>
      </form>
      <ReviewDialog
        {...reviewState(review, setReview, confirm, create.isPending)}
        title="Review your withdrawal"
        confirmLabel="Confirm withdrawal"
        rows={reviewRows}
      >
        <p>
          The full amount leaves your income balance now and the request waits for approval. A payment sent to a wrong address or network cannot be recovered.
        </p>
      </ReviewDialog>
    </div>
  );
}
