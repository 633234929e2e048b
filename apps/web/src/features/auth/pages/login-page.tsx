import { ZLoginRequest, type TLoginRequest } from '@app/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { FieldError, invalidProps } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { login } from '../api/auth-api';
import { AuthShell } from '../components/auth-shell';
import { useFinishLogin } from '../components/finish-login';
import { PasswordInput } from '../../../components/ui/password-input';
import { SocialButtons } from '../components/social-buttons';
import { startOtp } from '../components/start-otp';
import { TwoFactorStep } from '../components/two-factor-step';

/** api-client words a failure without a server message as 'Request failed (status)'. */
function hasServerMessage(err: ApiError): boolean {
  return err.message !== '' && !/^Request failed \(\d+\)$/.test(err.message);
}

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const finish = useFinishLogin();
  const [inlineError, setInlineError] = useState<string | null>(null);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const form = useForm<TLoginRequest>({ resolver: zodResolver(ZLoginRequest), mode: 'onTouched', defaultValues: { email: '', password: '' } });
  const { errors, isSubmitting } = form.formState;
  const from = (location.state as { from?: string } | null)?.from;

  const onSubmit = form.handleSubmit(async (values) => {
    setInlineError(null);
    try {
      const res = await login(values);
      if (res.data?.token) {
        finish({ token: res.data.token, is_admin: res.data.is_admin }, from);
      } else if (res.data?.requires_2fa === true && res.data.challenge_id) {
        setChallengeId(res.data.challenge_id);
      } else if (res.data?.access_id) {
        startOtp(res.data.access_id);
        toast.info('Please Verify your email to continue.');
        void navigate('/verify-otp', { replace: true });
      } else {
        setInlineError('Login failed. Please check your credentials.');
      }
    } catch (err) {
      // The server's message is preferred (a toast); an answer without one is said inline on the
      // form; no answer at all (network) or anything else is 'Login failed. Please try again.'.
      if (err instanceof ApiError && err.status === 0) toast.error('Login failed. Please try again.');
      else if (err instanceof ApiError && hasServerMessage(err)) toast.error(err.message);
      else if (err instanceof ApiError) setInlineError('Login failed. Please check your credentials.');
      else toast.error('Login failed. Please try again.');
    }
  });

  if (challengeId)
    return (
      <TwoFactorStep
        challengeId={challengeId}
        from={from}
        onBack={() => {
          setChallengeId(null);
          form.resetField('password');
        }}
      />
    );

  return (
    <AuthShell
      title="Welcome back"
      subtitle="Log in to your account"
      footer={
        <>
          New here?{' '}
          <Link to="/signup" className="font-semibold text-brand-400 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div>
          <label htmlFor="email" className="label">
            Email
          </label>
          <input
            id="email"
            type="email"
            className="input"
            autoComplete="email"
            placeholder="you@example.com"
            {...form.register('email')}
            {...invalidProps('email', errors.email?.message)}
          />
          <FieldError id="email" error={errors.email?.message} />
        </div>
        <div>
          <div className="flex items-center justify-between">
            <label htmlFor="password" className="label">
              Password
            </label>
            <Link to="/forgot-password" className="mb-1.5 text-xs font-semibold text-brand-400 hover:underline">
              Forgot password?
            </Link>
          </div>
          <PasswordInput
            id="password"
            autoComplete="current-password"
            placeholder="Your password"
            {...form.register('password')}
            {...invalidProps('password', errors.password?.message)}
          />
          <FieldError id="password" error={errors.password?.message} />
        </div>
        {inlineError ? (
          <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-300">
            {inlineError}
          </p>
        ) : null}
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Logging in...' : 'Login'}
        </Button>
      </form>
      <SocialButtons />
    </AuthShell>
  );
}
