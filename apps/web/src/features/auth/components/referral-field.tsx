import { REFERRAL_ID_LENGTH } from '@app/core/constants';
import { CheckCircle2, Loader2 } from 'lucide-react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { ReferralState } from './use-referral-check';

/** The optional referral ID: uppercased as typed, at most 9 characters, with the check's states under it. */
export function ReferralField({ registration, error, state, locked }: { registration: UseFormRegisterReturn; error?: string; state: ReferralState; locked?: boolean }) {
  return (
    <div>
      <label htmlFor="referral_id" className="label">
        Referral ID <span className="text-slate-500">(optional)</span>
      </label>
      <input
        id="referral_id"
        className="input uppercase"
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
      {error ? (
        <p className="field-error">{error}</p>
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
