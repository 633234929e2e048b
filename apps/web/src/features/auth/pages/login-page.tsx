import { ZLoginRequest, type TLoginRequest } from '@app/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { fieldsOf, FormAlert, PasswordField, TextField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useHydrated } from '../../../lib/use-hydrated';
import { login } from '../api/auth-api';
import { AuthShell } from '../components/auth-shell';
import { useFinishLogin } from '../components/finish-login';
import { SocialButtons } from '../components/social-buttons';
import { startOtp } from '../components/start-otp';
import { TwoFactorStep } from '../components/two-factor-step';
import { takeWaitingPress, typedBeforeHydration } from '../../../lib/early-form';
import { AUTH_TEXTS } from '../auth-texts';

/** api-client words a failure without a server message as 'Request failed (status)'. */
function hasServerMessage(err: ApiError): boolean {
  return err.message !== '' && !/^Request failed \(\d+\)$/.test(err.message);
}

// The wrapper keeps the label's bottom margin, so the link lines up with the label while its own
// tap area (the tap utility's padding) stays out of the layout. It carries the e-mail typed so far
// (router state, not the address bar), so the reset page does not ask for it again.
const forgotLink = (email: string) => (
  <div className="mb-1.5">
    <Link to="/forgot-password" state={email ? { email } : undefined} className="tap text-xs font-semibold text-brand-400 hover:underline">
      Forgot password?
    </Link>
  </div>
);

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const finish = useFinishLogin();
  const [inlineError, setInlineError] = useState<string | null>(null);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  // What was typed into login.html's form before the app was ready stays (early-form.ts).
  const [typed] = useState(() => typedBeforeHydration({ email: '', password: '' }));
  const form = useForm<TLoginRequest>({ resolver: zodResolver(ZLoginRequest), mode: 'onTouched', defaultValues: typed });
  const { isSubmitting } = form.formState;
  const field = fieldsOf(form);
  const from = (location.state as { from?: string } | null)?.from;
  // The page is pre-rendered at build time (login.html): until React has hydrated it, a tap on Login
  // would submit the form natively (a GET with the password in the address). A disabled default
  // button also stops Enter from submitting (implicit submission).
  const hydrated = useHydrated();

  const onSubmit = form.handleSubmit(async (values) => {
    setInlineError(null);
    try {
      const res = await login(values);
      // A refusal from an earlier try must not ride along onto the next page.
      if (res.data) toast.dismiss();
      if (res.data?.token) {
        finish({ token: res.data.token, is_admin: res.data.is_admin }, from);
      } else if (res.data?.requires_2fa === true && res.data.challenge_id) {
        setChallengeId(res.data.challenge_id);
      } else if (res.data?.access_id) {
        startOtp(res.data.access_id, { email: values.email, codeSent: res.data.code_sent !== false });
        toast.info('Please Verify your email to continue.');
        void navigate('/verify-otp', { replace: true });
      } else {
        setInlineError(AUTH_TEXTS.loginRefused);
      }
    } catch (err) {
      // The server's message is preferred (a toast); an answer without one is said inline on the
      // form; no answer at all (network) or anything else is 'Login failed. Please try again.'.
      if (err instanceof ApiError && err.status === 0) toast.error(AUTH_TEXTS.loginFailed);
      else if (err instanceof ApiError && hasServerMessage(err)) toast.error(err.message);
      else if (err instanceof ApiError) setInlineError(AUTH_TEXTS.loginRefused);
      else toast.error(AUTH_TEXTS.loginFailed);
    }
  });

  // A press on login.html's form before the app was ready: carried out once, now. Its request may
  // already be answered: login() takes that answer (api-client) instead of asking again.
  useEffect(() => {
    if (takeWaitingPress()) void onSubmit();
    // Once, on the first mount: the press belongs to the form as hydrated.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

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
    <AuthShell title="Welcome back" subtitle="Log in to your account" footer={{ text: 'New here?', to: '/signup', link: 'Create an account' }}>
      <form onSubmit={onSubmit} noValidate className="space-y-4" data-early-form="login">
        <TextField label="Email" type="email" autoComplete="email" placeholder="you@example.com" {...field('email')} />
        <PasswordField
          label="Password"
          labelAside={forgotLink(form.watch('email'))}
          autoComplete="current-password"
          placeholder="Your password"
          {...field('password')}
        />
        <FormAlert message={inlineError} />
        <Button type="submit" className="w-full" disabled={isSubmitting || !hydrated}>
          {isSubmitting ? AUTH_TEXTS.loggingIn : 'Login'}
        </Button>
      </form>
      <SocialButtons />
    </AuthShell>
  );
}
