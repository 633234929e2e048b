import { OTP_LENGTH } from '@app/core/constants';
import { RESET_DONE_MESSAGE, ZResetPasswordForm, type TResetPasswordForm } from '@app/core/schemas/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { fieldsOf, FormAlert, NewPasswordField, OtpField, PasswordField } from '../../../components/ui/form-field';
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
  const [email] = useState(() => storage.getResetEmail());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TResetPasswordForm>({
    resolver: zodResolver(ZResetPasswordForm),
    mode: 'onTouched',
    defaultValues: { otp: '', password: '', confirmPassword: '' },
  });
  const { isSubmitting } = form.formState;

  if (!accessId) return <Navigate to="/forgot-password" replace />;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const res = await resetPassword({ access_id: accessId, otp: values.otp, password: values.password });
      storage.clearResetAccessId();
      storage.clearResetEmail();
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

  const field = fieldsOf(form);
  return (
    <AuthShell
      title="Reset password"
      subtitle={email ? `We sent a code to ${email}. Enter it and choose a new password.` : 'Enter the 6-digit code from the e-mail and choose a new password.'}
      footer={{ text: 'No code?', to: '/forgot-password', link: 'Send a new one' }}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <OtpField label="Reset code" autoFocus maxLength={OTP_LENGTH} {...field('otp', { setValueAs: (v: string) => v.replace(/\D/g, '') })} />
        <NewPasswordField label="New password" strength={form.watch('password')} {...field('password')} />
        <PasswordField label="Confirm new password" autoComplete="new-password" placeholder="Repeat your password" {...field('confirmPassword')} />
        <FormAlert message={formError} />
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Resetting...' : 'Reset password'}
        </Button>
      </form>
    </AuthShell>
  );
}
