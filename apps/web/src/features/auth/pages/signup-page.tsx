import { user } from '@app/core/contracts/user';
import { ZSignupForm, type TSignupForm } from '@app/core/schemas/auth';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { storage } from '../../../lib/storage';
import { useHydrated } from '../../../lib/use-hydrated';
import { register as registerUser } from '../api/auth-api';
import { takeWaitingPress, typedBeforeHydration } from '../../../lib/early-form';
import { AuthShell } from '../components/auth-shell';
import { fieldsOf, NewPasswordField, PasswordField, TextField } from '../../../components/ui/form-field';
import { ReferralField } from '../components/referral-field';
import { SocialButtons } from '../components/social-buttons';
import { readSocialReturn, readTwoFactorReturn, SOCIAL_FAILURE } from '../components/social-return';
import { startOtp } from '../components/start-otp';
import { TwoFactorStep } from '../components/two-factor-step';
import { useReferralCheck } from '../components/use-referral-check';
import { AUTH_TEXTS } from '../auth-texts';

type Fields = 'name' | 'email' | 'password' | 'confirmPassword' | 'referral_id' | 'terms';

export default function SignupPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const refParam = (params.get('ref') ?? '').toUpperCase();
  const lockedRef = /^[A-Z0-9]{9}$/.test(refParam) ? refParam : '';
  // What was typed into signup.html's form before the app was ready stays (early-form.ts); an
  // invite's ref is only ever read afresh (the server sends that address app.html, no form in it).
  const [typed] = useState(() => typedBeforeHydration({ name: '', email: '', password: '', confirmPassword: '', referral_id: lockedRef, terms: false }));
  const form = useForm<TSignupForm>({ resolver: zodResolver(ZSignupForm), mode: 'onTouched', defaultValues: typed });
  const { errors, isSubmitting } = form.formState;
  const field = fieldsOf(form);
  const referralValue = form.watch('referral_id');
  const referral = useReferralCheck(referralValue);
  // The page is pre-rendered at build time (signup.html): until React has hydrated it, a press
  // would submit the form natively (its early script holds one instead, early-signup.ts), and the
  // first render must be the build's, so the strength meter starts from an empty password.
  const hydrated = useHydrated();
  const handled = useRef(false);
  // Read once on arrival, before the first paint, so the sign-up form never flashes for a 2FA user.
  const [challengeId] = useState(() => readTwoFactorReturn(params));

  // Back from a social sign-in: hand the query to the matching step (spec section 2, Signup).
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    if (challengeId) return;
    const result = readSocialReturn(params);
    if (result.kind === 'token') {
      storage.setSession(result.token, result.isAdmin);
      qc.clear();
      // The token in the address is only a claim: greet once the server has accepted it.
      call(user.profile).then(
        () => {
          toast.success(AUTH_TEXTS.loginSuccess);
          void navigate(result.isAdmin ? '/admin/dashboard' : '/dashboard', { replace: true });
        },
        (err: unknown) => {
          // A refused token (401, or 403 'Invalid or expired token') has already been cleared and
          // sent to / by the global handling (spec section 8); anything else ends as a social failure.
          const refused = err instanceof ApiError && (err.status === 401 || (err.status === 403 && err.message === 'Invalid or expired token'));
          storage.clearSession();
          const raw = params.get('provider');
          toast.error(errorMessage(err, SOCIAL_FAILURE[raw === 'facebook' || raw === 'instagram' ? raw : 'google']));
          if (!refused) void navigate('/login', { replace: true });
        },
      );
    } else if (result.kind === 'referral') {
      void navigate('/referral', { replace: true });
    } else if (result.kind === 'failed') {
      toast.error(result.message);
      void navigate('/login', { replace: true });
    }
  }, [params, navigate, qc, challengeId]);

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        const res = await registerUser({
          name: values.name,
          email: values.email,
          password: values.password,
          ...(values.referral_id ? { referral_id: values.referral_id.toUpperCase() } : {}),
        });
        // A refusal from an earlier try (e-mail taken) must not ride along onto the next page.
        if (res.data?.token || res.data?.access_id) toast.dismiss();
        if (res.data?.token) {
          storage.setSession(res.data.token, res.data.is_admin ?? false);
          qc.clear();
          toast.success('Registration successful!');
          void navigate('/dashboard', { replace: true });
        } else if (res.data?.access_id) {
          startOtp(res.data.access_id, { email: values.email, codeSent: res.data.code_sent !== false });
          toast.success('Registration successful!' + ' Otp Verification needed.');
          void navigate('/verify-otp', { replace: true });
        } else {
          toast.error(res.message || 'Registration failed. Please try again.');
        }
      } catch (err) {
        if (err instanceof ApiError) {
          for (const [field, message] of Object.entries(err.errors)) form.setError(field as Fields, { message });
        }
        toast.error(errorMessage(err, 'Registration failed. Please try again.'));
      }
    },
    (errs) => {
      if (errs.terms) toast.error('Please agree to the terms and conditions');
    },
  );

  // A press on signup.html's form before the app was ready: carried out once, now, with the app's
  // own checks of every field.
  useEffect(() => {
    if (takeWaitingPress()) void onSubmit();
    // Once, on the first mount: the press belongs to the form as hydrated.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (challengeId) return <TwoFactorStep challengeId={challengeId} onBack={() => void navigate('/login', { replace: true })} />;

  return (
    <AuthShell
      title="Create Account"
      subtitle="Start earning daily rewards on your USDT"
      footer={{ text: 'Already have an account?', to: '/login', link: 'Login' }}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4" data-early-form="signup">
        <TextField label="Full Name" autoComplete="name" placeholder="Your full name" {...field('name')} />
        <TextField label="Email" type="email" autoComplete="email" placeholder="you@example.com" {...field('email')} />
        <NewPasswordField label="Password" strength={hydrated ? form.watch('password') : ''} {...field('password')} />
        <PasswordField label="Confirm Password" autoComplete="new-password" placeholder="Repeat your password" {...field('confirmPassword')} />
        <ReferralField
          registration={form.register('referral_id')}
          value={hydrated ? referralValue : ''}
          error={errors.referral_id?.message}
          state={referral}
          locked={Boolean(lockedRef)}
        />
        <div>
          {/* The whole row is the checkbox's tap target: at least 44 px tall even on one line. */}
          <label className="flex min-h-11 items-center gap-2 text-sm text-slate-300">
            <input type="checkbox" className="h-4 w-4 shrink-0 accent-emerald-500" {...form.register('terms')} />
            <span>
              I agree to the{' '}
              <Link to="/terms-conditions" className="text-brand-400 hover:underline">
                Terms &amp; Conditions
              </Link>{' '}
              and the{' '}
              <Link to="/privacy-policy" className="text-brand-400 hover:underline">
                Privacy Policy
              </Link>
            </span>
          </label>
          {errors.terms ? <p className="field-error">{errors.terms.message}</p> : null}
        </div>
        <Button type="submit" className="w-full" disabled={isSubmitting || !hydrated}>
          {isSubmitting ? AUTH_TEXTS.creatingAccount : 'Create Account'}
        </Button>
      </form>
      <SocialButtons referralId={(referralValue ?? '').toUpperCase()} />
    </AuthShell>
  );
}
