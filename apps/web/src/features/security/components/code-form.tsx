import { ZTwoFactorCodeRequest } from '@app/core/schemas/security';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { TwoFactorCodeField } from '../../../components/ui/form-field';
import { ApiError, errorMessage } from '../../../lib/api-client';

type Input = z.input<typeof ZTwoFactorCodeRequest>;
type Output = z.output<typeof ZTwoFactorCodeRequest>;

/** A two-factor code field with its submit: the server's refusal is shown under the field. */
export function CodeForm({
  id,
  label,
  hint,
  submitLabel,
  busyLabel,
  variant = 'primary',
  onSubmit,
  onCancel,
}: {
  id: string;
  label: string;
  hint: string;
  submitLabel: string;
  busyLabel: string;
  variant?: 'primary' | 'danger';
  onSubmit: (code: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(ZTwoFactorCodeRequest), defaultValues: { code: '' } });
  const { errors, isSubmitting } = form.formState;
  const error = errors.code?.message;

  const submit = form.handleSubmit(async ({ code }) => {
    try {
      await onSubmit(code);
    } catch (err) {
      const message = err instanceof ApiError && err.errors.code ? err.errors.code : errorMessage(err, 'Something went wrong. Please try again.');
      form.setError('code', { message }, { shouldFocus: true });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <TwoFactorCodeField id={id} label={label} hint={hint} error={error} {...form.register('code')} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" variant={variant} disabled={isSubmitting}>
          {isSubmitting ? busyLabel : submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
