import { LOOKUP_DEBOUNCE_MS } from '@app/core/constants';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { checkReferral } from '../api/auth-api';

export type ReferralState = { kind: 'idle' } | { kind: 'checking' } | { kind: 'valid'; name: string } | { kind: 'invalid'; message: string };

/** Checks a complete referral ID 500 ms after the last keystroke (spec section 4, Referral check). */
export function useReferralCheck(value: string | undefined): ReferralState {
  const [state, setState] = useState<ReferralState>({ kind: 'idle' });
  const id = (value ?? '').trim().toUpperCase();
  useEffect(() => {
    if (!/^[A-Z0-9]{9}$/.test(id)) {
      setState({ kind: 'idle' });
      return;
    }
    let live = true;
    setState({ kind: 'checking' });
    const t = setTimeout(() => {
      checkReferral(id)
        .then(
          (res) =>
            live &&
            setState(res.success && res.data ? { kind: 'valid', name: res.data.userName } : { kind: 'invalid', message: res.message || 'Invalid referral ID' }),
        )
        .catch((err: unknown) => live && setState({ kind: 'invalid', message: errorMessage(err, 'Invalid referral ID') }));
    }, LOOKUP_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [id]);
  return state;
}
