import type { TTicket } from '@app/core/contracts';
import { formatDateTime } from '@app/core/format';
import { SUPPORT_DISALLOWED_MESSAGE, SUPPORT_DISALLOWED_RE, ZTicketReplyRequest } from '@app/core/schemas/support';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useReplyTicket } from '../api/tickets';

/**
 * The 'Admin Remarks' dialog's body (spec: Subject, Your Message, Admin Response), then the rest of
 * the conversation and a box to answer back (issue 32, item 20): a reply makes the ticket open
 * again, waiting for support. The message rules are the new ticket's (spec section 5).
 */
export function TicketThread({ ticket, onSent }: { ticket: TTicket; onSent: () => void }) {
  const reply = useReplyTicket();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const live = SUPPORT_DISALLOWED_RE.test(text) ? SUPPORT_DISALLOWED_MESSAGE : null;
  // The Admin Response is support's latest answer; the messages before it are listed under it.
  const last = ticket.replies.at(-1);
  const conversation = last?.author === 'admin' && last.message === ticket.adminRemark ? ticket.replies.slice(0, -1) : ticket.replies;
  const send = async () => {
    const parsed = ZTicketReplyRequest.safeParse({ message: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Message is required');
      return;
    }
    try {
      const res = await reply.mutateAsync({ id: ticket.id, message: parsed.data.message });
      toast.success(res.message || 'Reply sent');
      setText('');
      setError(null);
      onSent();
    } catch (err) {
      setError(errorMessage(err, 'Failed to send the reply'));
    }
  };
  return (
    <div className="space-y-3 text-sm">
      <dl className="space-y-3">
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-400">Subject</dt>
          <dd className="capitalize text-slate-200">{ticket.type}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-400">Your Message</dt>
          <dd className="whitespace-pre-wrap break-words text-slate-200">{ticket.message}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-400">Admin Response</dt>
          <dd className="whitespace-pre-wrap break-words rounded-xl bg-surface-900 p-3 text-slate-100">{ticket.adminRemark || 'No remarks provided'}</dd>
        </div>
      </dl>
      {conversation.length ? (
        <section aria-label="Earlier messages">
          <h3 className="text-xs uppercase tracking-wide text-slate-400">Earlier messages</h3>
          <ol className="mt-1 space-y-2">
            {conversation.map((r, i) => (
              <li key={i} className={r.author === 'admin' ? 'rounded-xl bg-surface-900 p-3' : 'rounded-xl border border-white/10 p-3'}>
                <p className="text-xs text-slate-400">
                  {r.author === 'admin' ? 'Support' : 'You'} · {formatDateTime(r.createdAt)}
                </p>
                <p className="mt-0.5 whitespace-pre-wrap break-words text-slate-100">{r.message}</p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <div>
        <label htmlFor="ticket-reply" className="label">
          Your reply
        </label>
        <textarea
          id="ticket-reply"
          rows={3}
          className="input resize-y"
          value={text}
          aria-invalid={error || live ? true : undefined}
          aria-describedby={error || live ? 'ticket-reply-error' : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
        {error || live ? (
          <p id="ticket-reply-error" className="field-error">
            {error ?? live}
          </p>
        ) : null}
      </div>
      <Button className="w-full" disabled={reply.isPending || !text.trim() || live !== null} onClick={() => void send()}>
        {reply.isPending ? 'Sending...' : 'Send reply'}
      </Button>
    </div>
  );
}
