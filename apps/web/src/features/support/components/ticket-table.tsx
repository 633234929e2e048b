import type { TTicket } from '@app/core/contracts';
import { formatDateLong } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusBadge } from '../../../components/status-badge';
import { Modal } from '../../../components/ui/modal';
import { Button } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { TablePagination } from '../../../components/paged-query-table';
import { errorMessage } from '../../../lib/api-client';
import { useErrorToast } from '../../../lib/use-error-toast';
import { ticketsQueryOptions } from '../api/tickets';
import { TicketThread } from './ticket-thread';

const status = (t: TTicket) => t.status.toLowerCase();
/**
 * A ticket support has answered (or closed) opens its conversation (spec: a closed ticket is red
 * and clickable); 'Answered' is its own state, highlighted, so a reply is not missed (issue 32,
 * item 20). An open ticket waits for support: green, as the spec has it.
 */
const opens = (t: TTicket) => status(t) === 'closed' || status(t) === 'answered';

export function TicketTable({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const tickets = useQuery(ticketsQueryOptions(page));
  const [open, setOpen] = useState<TTicket | null>(null);

  useErrorToast(tickets, 'Failed to fetch ticket history');

  return (
    <section className="card overflow-hidden p-0">
      <h2 className="px-4 pt-4 text-base font-semibold text-white">Ticket History</h2>
      <div className="mt-3">
        <DataTable<TTicket>
          label="Ticket History"
          minWidth="sm:min-w-[520px]"
          rows={tickets.data?.data}
          loading={tickets.isPending}
          error={tickets.isError ? errorMessage(tickets.error, 'Failed to load tickets') : null}
          empty="No tickets yet"
          rowKey={(t) => String(t.id)}
          onRow={(t) => (opens(t) ? setOpen(t) : undefined)}
          rowTitle={(t) => (opens(t) ? 'View admin remarks' : undefined)}
          cols={[
            { header: 'Date', cell: (t) => formatDateLong(t.createdAt), className: 'text-slate-300 sm:whitespace-nowrap' },
            { header: 'Subject', cell: (t) => <span className="capitalize">{t.type}</span> },
            {
              header: 'Message',
              cell: (t) => <span className="line-clamp-2 sm:block sm:max-w-[220px] sm:truncate">{t.message}</span>,
              className: 'text-slate-400',
            },
            {
              header: 'Status',
              cell: (t) =>
                opens(t) ? (
                  <button
                    type="button"
                    className="-my-3 inline-flex min-h-11 min-w-11 items-center justify-center rounded-full"
                    onClick={(e) => (e.stopPropagation(), setOpen(t))}
                  >
                    <StatusBadge kind="ticket" status={t.status} />
                  </button>
                ) : (
                  <StatusBadge kind="ticket" status={t.status} />
                ),
            },
          ]}
        />
        <TablePagination list={tickets.data} page={page} onPage={onPage} />
      </div>
      <Modal open={open !== null} onClose={() => setOpen(null)} title="Admin Remarks">
        {open ? <TicketThread ticket={open} onSent={() => setOpen(null)} /> : null}
        <Button variant="secondary" className="mt-4 w-full" onClick={() => setOpen(null)}>
          Close
        </Button>
      </Modal>
    </section>
  );
}
