import type { TTicket } from '@app/core';
import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { ticketsQueryOptions } from '../api/tickets';

export function TicketTable() {
  const tickets = useQuery(ticketsQueryOptions());
  const [open, setOpen] = useState<TTicket | null>(null);

  useEffect(() => {
    if (tickets.isError) toast.error(errorMessage(tickets.error, 'Failed to fetch ticket history'));
  }, [tickets.isError, tickets.error]);

  return (
    <section className="card overflow-hidden p-0">
      <h2 className="px-4 pt-4 text-base font-semibold text-white">Ticket History</h2>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[520px] text-left text-sm">
          <thead className="bg-surface-900/60 text-xs uppercase tracking-wide text-slate-400">
            <tr>
              <th className="px-4 py-2.5 font-medium">Date</th>
              <th className="px-4 py-2.5 font-medium">Subject</th>
              <th className="px-4 py-2.5 font-medium">Message</th>
              <th className="px-4 py-2.5 font-medium">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/5">
            {tickets.isPending ? (
              <tr>
                <td colSpan={4} className="px-4 py-8 text-center">
                  <Spinner label="Loading..." />
                </td>
              </tr>
            ) : tickets.isError ? (
              <tr>
                <td colSpan={4} className="px-4 py-8 text-center text-red-400">
                  {errorMessage(tickets.error, 'Failed to load tickets')}
                </td>
              </tr>
            ) : tickets.data.length === 0 ? (
              <tr>
                <td colSpan={4} className="px-4 py-8 text-center text-slate-400">
                  No tickets yet
                </td>
              </tr>
            ) : (
              tickets.data.map((t) => {
                const closed = t.status.toLowerCase() === 'closed';
                return (
                  <tr
                    key={t.id}
                    onClick={closed ? () => setOpen(t) : undefined}
                    className={closed ? 'cursor-pointer hover:bg-white/5' : undefined}
                    title={closed ? 'View admin remarks' : undefined}
                  >
                    <td className="whitespace-nowrap px-4 py-3 text-slate-300">{formatDateLong(t.createdAt)}</td>
                    <td className="px-4 py-3 capitalize text-slate-200">{t.type}</td>
                    <td className="max-w-[220px] truncate px-4 py-3 text-slate-400">{t.message}</td>
                    <td className="px-4 py-3">
                      {closed ? (
                        <button type="button" className="rounded-full" onClick={() => setOpen(t)}>
                          <Badge tone="danger">{t.status}</Badge>
                        </button>
                      ) : (
                        <Badge tone="success">{t.status}</Badge>
                      )}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      <Modal open={open !== null} onClose={() => setOpen(null)} title="Admin Remarks">
        {open ? (
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Subject</dt>
              <dd className="capitalize text-slate-200">{open.type}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Your Message</dt>
              <dd className="whitespace-pre-wrap break-words text-slate-200">{open.message}</dd>
            </div>
            <div>
              <dt className="text-xs uppercase tracking-wide text-slate-500">Admin Response</dt>
              <dd className="whitespace-pre-wrap break-words rounded-xl bg-surface-900 p-3 text-slate-100">{open.adminRemark || 'No remarks provided'}</dd>
            </div>
          </dl>
        ) : null}
      </Modal>
    </section>
  );
}
