import { ZTwoFactorCodeRequest } from '@app/core/schemas/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { fieldsOf, TwoFactorCodeField } from '../../../components/ui/form-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { login2fa } from '../api/auth-api';
import { AuthShell } from './auth-shell';
import { useFinishLogin } from './finish-login';
import { AUTH_TEXTS } from '../auth-texts';

const HINT = 'The 6-digit code from your authenticator app, or one of your recovery codes.';

type Input = z.input<typeof ZTwoFactorCodeRequest>;
type Output = z.output<typeof ZTwoFactorCodeRequest>;

/**
 * The second step of a sign-in for a user with two-factor authentication (server.md section 9): the
 * password login and the social return both end here with the challenge the server gave them.
 */
export function TwoFactorStep({ challengeId, from, onBack }: { challengeId: string; from?: string; onBack: () => void }) {
  const finish = useFinishLogin();
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(ZTwoFactorCodeRequest), defaultValues: { code: '' } });
  const { errors, isSubmitting } = form.formState;
  const error = errors.code?.message ?? errors.root?.message;

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      const res = await login2fa({ challenge_id: challengeId, code });
      if (res.data?.token) finish({ token: res.data.token, is_admin: res.data.is_admin }, from);
      else form.setError('root', { message: AUTH_TEXTS.loginFailed });
    } catch (err) {
      const message = err instanceof ApiError ? (err.errors.code ?? errorMessage(err, AUTH_TEXTS.loginFailed)) : AUTH_TEXTS.loginFailed;
      form.setError('code', { message }, { shouldFocus: true });
    }
  });

  return (
    <AuthShell icon={ShieldCheck} title="Two-factor code" subtitle="Your account is protected with two-factor authentication">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TwoFactorCodeField label="Two-factor code" large autoFocus hint={HINT} alert {...fieldsOf(form)('code')} id="tfa-code" error={error} />
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Verifying...' : 'Verify'}
        </Button>
        <Button variant="ghost" className="w-full" onClick={onBack}>
          Back to login
        </Button>
      </form>
    </AuthShell>
  );
}
