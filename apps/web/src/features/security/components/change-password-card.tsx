import { ZChangePasswordForm, type TChangePasswordForm } from '@app/core/schemas/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { fieldsOf, NewPasswordField, PasswordField } from '../../../components/ui/form-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useChangePassword } from '../api/security-api';
import { SectionTitle } from './section-title';

/** Change of password: a wrong current password is said under its field (server.md section 9). */
export function ChangePasswordCard() {
  const change = useChangePassword();
  const form = useForm<TChangePasswordForm>({
    resolver: zodResolver(ZChangePasswordForm),
    mode: 'onTouched',
    defaultValues: { current_password: '', new_password: '', confirmPassword: '' },
  });
  const field = fieldsOf(form);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await change.mutateAsync({ current_password: values.current_password, new_password: values.new_password });
      toast.success(res.message || 'Password changed successfully');
      form.reset();
    } catch (err) {
      const fieldErrors = err instanceof ApiError ? err.errors : {};
      // The field comes from the answer (the error table's field), never from matching its text.
      if (fieldErrors.current_password) {
        form.setError('current_password', { message: fieldErrors.current_password }, { shouldFocus: true });
      } else if (fieldErrors.new_password) {
        form.setError('new_password', { message: fieldErrors.new_password }, { shouldFocus: true });
      } else {
        toast.error(errorMessage(err, 'Could not change the password. Please try again.'));
      }
    }
  });

  return (
    <section aria-labelledby="change-password-title" className="card space-y-4">
      <SectionTitle id="change-password-title" icon={KeyRound} title="Change password" subtitle="Signing in elsewhere ends when you change it." />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <PasswordField label="Current password" autoComplete="current-password" {...field('current_password')} />
        <NewPasswordField label="New password" strength={form.watch('new_password')} {...field('new_password')} />
        <PasswordField label="Confirm new password" autoComplete="new-password" {...field('confirmPassword')} id="confirm_new_password" />
        <Button type="submit" className="w-full sm:w-auto" disabled={change.isPending}>
          {change.isPending ? 'Saving...' : 'Change password'}
        </Button>
      </form>
    </section>
  );
}
