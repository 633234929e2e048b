import { SUPPORT_MESSAGE_MAX, SUPPORT_SUBJECTS } from '@app/core/constants';
import { SUPPORT_DISALLOWED_MESSAGE, SUPPORT_DISALLOWED_RE, ZCreateTicketRequest, type TCreateTicketRequest } from '@app/core/schemas/support';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { SubmitButton } from '../../../components/ui/submit-button';
import { errorMessage } from '../../../lib/api-client';
import { useCreateTicket } from '../api/tickets';

const SUBJECT_LABELS: Record<(typeof SUPPORT_SUBJECTS)[number], string> = {
  general: 'General',
  technical: 'Technical',
  withdrawal: 'Withdrawal',
  deposit: 'Deposit',
  staking: 'Staking',
};

/** `onCreated` runs after a ticket is opened (the screen goes back to the first page, where it now is). */
export function TicketForm({ onCreated }: { onCreated?: () => void } = {}) {
  const create = useCreateTicket();
  const form = useForm<{ type: string; message: string }, unknown, TCreateTicketRequest>({
    resolver: zodResolver(ZCreateTicketRequest),
    defaultValues: { type: '', message: '' },
  });
  const { errors } = form.formState;
  const message = form.watch('message');
  const length = message.length;
  // A disallowed character is said as it is typed, not only after Submit (spec section 5 lists them).
  const messageError = errors.message?.message ?? (SUPPORT_DISALLOWED_RE.test(message) ? SUPPORT_DISALLOWED_MESSAGE : undefined);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const res = await create.mutateAsync(values);
      toast.success(res.message || 'Support ticket created!');
      form.reset();
      onCreated?.();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to create ticket'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="card space-y-4">
      <div>
        <label htmlFor="ticket-type" className="label">
          Subject
        </label>
        <select id="ticket-type" className="input" {...form.register('type', { setValueAs: (v: string) => (v === '' ? undefined : v) })}>
          <option value="">Please select a subject</option>
          {SUPPORT_SUBJECTS.map((s) => (
            <option key={s} value={s}>
              {SUBJECT_LABELS[s]}
            </option>
          ))}
        </select>
        {errors.type ? <p className="field-error">{errors.type.message}</p> : null}
      </div>
      <div>
        <label htmlFor="ticket-message" className="label">
          Message
        </label>
        <textarea
          id="ticket-message"
          rows={5}
          maxLength={SUPPORT_MESSAGE_MAX + 50}
          placeholder="Describe your issue (10 to 1000 characters)"
          className="input resize-y"
          {...form.register('message')}
        />
        <div className="mt-1 flex justify-between gap-2">
          {messageError ? <p className="field-error mt-0">{messageError}</p> : <span />}
          <span className="text-xs text-slate-400">
            {length}/{SUPPORT_MESSAGE_MAX}
          </span>
        </div>
      </div>
      <SubmitButton busy={create.isPending} busyLabel="Loading...">
        Submit Ticket
      </SubmitButton>
    </form>
  );
}
