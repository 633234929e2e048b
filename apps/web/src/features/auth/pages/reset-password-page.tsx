import { OTP_LENGTH } from '@app/core/constants';
import { RESET_DONE_MESSAGE, ZResetPasswordForm, type TResetPasswordForm } from '@app/core/schemas/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { FieldError, invalidProps } from '../../../components/ui/field';
import { PasswordInput } from '../../../components/ui/password-input';
import { StrengthMeter } from '../../../components/ui/strength-meter';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { resetPassword } from '../api/auth-api';
import { AuthShell } from '../components/auth-shell';

type Field = keyof TResetPasswordForm;
/** The request names the code `otp` and the new password `password`, like the form. */
const FIELDS: Field[] = ['otp', 'password', 'confirmPassword'];

/** Step 2 of the password reset (server.md section 9): the mailed code and the new password. */
export default function ResetPasswordPage() {
  const navigate = useNavigate();
  // Decided once on arrival: the access_id is removed on success, which must not bounce the page back.
  const [accessId] = useState(() => storage.getResetAccessId());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TResetPasswordForm>({
    resolver: zodResolver(ZResetPasswordForm),
    mode: 'onTouched',
    defaultValues: { otp: '', password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  if (!accessId) return <Navigate to="/forgot-password" replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const res = await resetPassword({ access_id: accessId, otp: values.otp, password: values.password });
      storage.clearResetAccessId();
      toast.success(res.message || RESET_DONE_MESSAGE);
      void navigate('/login', { replace: true });
    } catch (err) {
      const message = errorMessage(err, 'Password reset failed. Please try again.');
      const fieldErrors = err instanceof ApiError ? err.errors : {};
      let placed = false;
      for (const f of FIELDS) {
        if (fieldErrors[f]) {
          form.setError(f, { message: fieldErrors[f] });
          placed = true;
        }
      }
      // A 400 that names no field is about the code (wrong, dead, too many tries); anything else is
      // said above the button.
      if (!placed && err instanceof ApiError && err.status === 400) form.setError('otp', { message }, { shouldFocus: true });
      else if (!placed) setFormError(message);
    }
  });

  const password = form.watch('password');
  return (
    <AuthShell
      title="Reset password"
      subtitle="Enter the 6-digit code from the e-mail and choose a new password."
      footer={
        <>
          No code?{' '}
          <Link to="/forgot-password" className="font-semibold text-brand-400 hover:underline">
            Send a new one
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div>
          <label htmlFor="otp" className="label">
            Reset code
          </label>
          <input
            id="otp"
            className="input text-center font-mono text-2xl tracking-[0.5em]"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            maxLength={OTP_LENGTH}
            placeholder="••••••"
            {...form.register('otp', { setValueAs: (v: string) => v.replace(/\D/g, '') })}
            {...invalidProps('otp', errors.otp?.message)}
          />
          <FieldError id="otp" error={errors.otp?.message} />
        </div>
        <div>
          <label htmlFor="password" className="label">
            New password
          </label>
          <PasswordInput
            id="password"
            autoComplete="new-password"
            placeholder="6 to 30 characters"
            {...form.register('password')}
            {...invalidProps('password', errors.password?.message)}
          />
          <StrengthMeter password={password} />
          <FieldError id="password" error={errors.password?.message} />
        </div>
        <div>
          <label htmlFor="confirmPassword" className="label">
            Confirm new password
          </label>
          <PasswordInput
            id="confirmPassword"
            autoComplete="new-password"
            placeholder="Repeat your password"
            {...form.register('confirmPassword')}
            {...invalidProps('confirmPassword', errors.confirmPassword?.message)}
          />
          <FieldError id="confirmPassword" error={errors.confirmPassword?.message} />
        </div>
        {formError ? (
          <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-300">
            {formError}
          </p>
        ) : null}
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Resetting...' : 'Reset password'}
        </Button>
      </form>
    </AuthShell>
  );
}
