import { REFERRAL_ID_LENGTH } from '@app/core/constants';
import { referralIdMessage } from '@app/core/schemas/auth';
import { CheckCircle2, Loader2, Lock } from 'lucide-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { ReferralState } from './use-referral-check';

/**
 * The optional referral ID: uppercased as typed, at most 9 characters, with the check's states under it.
 * While it is being typed the rule reads live ('Referral ID must be 9 characters (n/9)'), before any submit.
 */
export function ReferralField({
  registration,
  value,
  error,
  state,
  locked,
}: {
  registration: UseFormRegisterReturn;
  value?: string;
  error?: string;
  state: ReferralState;
  locked?: boolean;
}) {
  const message = error ?? (value ? referralIdMessage(value) : null);
  return (
    <div>
      <label htmlFor="referral_id" className="label">
        Referral ID <span className="text-slate-400">(optional)</span>
      </label>
      <div className="relative">
        <input
          id="referral_id"
          className={locked ? 'input pr-11 uppercase text-slate-300 placeholder:normal-case' : 'input uppercase placeholder:normal-case'}
          maxLength={REFERRAL_ID_LENGTH}
          autoComplete="off"
          placeholder="e.g. AB12CD34E"
          readOnly={locked}
          aria-readonly={locked}
          {...registration}
          onChange={(e) => {
            e.target.value = e.target.value.toUpperCase();
            void registration.onChange(e);
          }}
        />
        {locked ? (
          <Lock className="pointer-events-none absolute right-4 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-label="From your invite link" />
        ) : null}
      </div>
      {message ? (
        <p className="field-error">{message}</p>
      ) : state.kind === 'checking' ? (
        <p className="mt-1 flex items-center gap-1 text-xs text-slate-400">
          <Loader2 className="h-3 w-3 animate-spin" aria-hidden /> Checking referral ID...
        </p>
      ) : state.kind === 'valid' ? (
        <p className="mt-1 flex items-center gap-1 text-xs text-emerald-400">
          <CheckCircle2 className="h-3 w-3" aria-hidden /> {`Referred by: ${state.name}`}
        </p>
      ) : state.kind === 'invalid' ? (
        <p className="field-error">{state.message}</p>
      ) : null}
    </div>
  );
}
