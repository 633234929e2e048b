import { RESET_SENT_MESSAGE, ZForgotPasswordRequest, type TForgotPasswordRequest } from '@app/core/schemas/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { fieldsOf, TextField } from '../../../components/ui/form-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { forgotPassword } from '../api/auth-api';
import { AuthShell } from '../components/auth-shell';

/** Step 1 of the password reset (server.md section 9): the e-mail; the server always answers the same. */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  // The e-mail typed on /login comes along (router state).
  const carried = (useLocation().state as { email?: unknown } | null)?.email;
  const form = useForm<TForgotPasswordRequest>({
    resolver: zodResolver(ZForgotPasswordRequest),
    mode: 'onTouched',
    defaultValues: { email: typeof carried === 'string' ? carried : '' },
  });
  const { errors, isSubmitting } = form.formState;
  const error = errors.email?.message ?? errors.root?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await forgotPassword(values);
      if (!res.data?.access_id) {
        form.setError('root', { message: 'Something went wrong. Please try again.' });
        return;
      }
      storage.setResetAccessId(res.data.access_id);
      storage.setResetEmail(values.email);
      toast.success(res.message || RESET_SENT_MESSAGE);
      void navigate('/reset-password');
    } catch (err) {
      const message = err instanceof ApiError && err.errors.email ? err.errors.email : errorMessage(err, 'Something went wrong. Please try again.');
      form.setError('email', { message }, { shouldFocus: true });
    }
  });

  return (
    <AuthShell
      icon={KeyRound}
      title="Forgot password?"
      subtitle="Enter the e-mail of your account and we will send you a code to reset your password."
      footer={{ text: 'Remembered it?', to: '/login', link: 'Back to login' }}
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField label="Email" type="email" autoComplete="email" autoFocus placeholder="you@example.com" {...fieldsOf(form)('email')} error={error} />
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Sending...' : 'Send reset code'}
        </Button>
      </form>
    </AuthShell>
  );
}
