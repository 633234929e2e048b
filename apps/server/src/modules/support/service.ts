import type { TCreateTicketRequest } from '@app/core';
import type { TTicket } from '@app/core/contracts';
import type { DB, Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import './table';
import { paginate } from '../../lib/paginate';

const MAX_OPEN_TICKETS = 20;

function toTicket(r: { id: bigint; type: string; message: string; status: string; created_at: Date; admin_remark: string | null }): TTicket {
  return { id: String(r.id), type: r.type, message: r.message, status: r.status, createdAt: r.created_at.toISOString(), adminRemark: r.admin_remark };
}

/** One page of the user's own tickets, newest first (a user never sees another user's tickets). */
export async function listTickets(db: Executor, userId: bigint, opts: { page: number; perPage: number }): Promise<{ rows: TTicket[]; total: number }> {
  const q = db.selectFrom('support_tickets').where('user_id', '=', userId);
  const { rows, total } = await paginate(q, opts.page, opts.perPage, (p) =>
    p.select(['id', 'type', 'message', 'status', 'created_at', 'admin_remark']).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { total, rows: rows.map(toTicket) };
}

/** Opens a ticket; the payload was trimmed and sanitised by the shared schema. */
export async function createTicket(db: DB, userId: bigint, input: TCreateTicketRequest): Promise<TTicket> {
  return db.transaction().execute(async (tx) => {
    // A cap on open tickets keeps one account from flooding the support queue.
    const open = await tx
      .selectFrom('support_tickets')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= MAX_OPEN_TICKETS) throw new AppError('RATE_LIMITED', 'You have too many open tickets. Please wait for a reply.');
    const row = await tx
      .insertInto('support_tickets')
      .values({ user_id: userId, type: input.type, message: input.message })
      .returning(['id', 'type', 'message', 'status', 'created_at', 'admin_remark'])
      .executeTakeFirstOrThrow();
    return toTicket(row);
  });
}

export interface AdminTicketRow extends TTicket {
  user: { id: string; username: string; email: string; name: string };
  closedAt: string | null;
}

/** Every ticket for the admin queue, optionally by status. */
export async function listAllTickets(
  db: Executor,
  opts: { status?: 'open' | 'closed'; page: number; perPage: number },
): Promise<{ rows: AdminTicketRow[]; total: number }> {
  let q = db.selectFrom('support_tickets').innerJoin('users', 'users.id', 'support_tickets.user_id');
  if (opts.status) q = q.where('support_tickets.status', '=', opts.status);
  const { rows, total } = await paginate(q, opts.page, opts.perPage, (p) =>
    p
      .select([
        'support_tickets.id',
        'support_tickets.type',
        'support_tickets.message',
        'support_tickets.status',
        'support_tickets.created_at',
        'support_tickets.admin_remark',
        'support_tickets.closed_at',
        'users.id as user_id',
        'users.username',
        'users.email',
        'users.name',
      ])
      .orderBy('support_tickets.created_at', 'desc')
      .orderBy('support_tickets.id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({
      ...toTicket(r),
      closedAt: r.closed_at ? r.closed_at.toISOString() : null,
      user: { id: String(r.user_id), username: r.username, email: r.email, name: r.name },
    })),
  };
}

/** Closes an open ticket with the admin's remark; closing twice is refused. Returns before/after for the audit log. */
export async function closeTicket(db: Executor, ticketId: bigint, adminId: bigint, remark: string): Promise<{ before: TTicket; after: TTicket }> {
  const before = await db
    .selectFrom('support_tickets')
    .select(['id', 'type', 'message', 'status', 'created_at', 'admin_remark'])
    .where('id', '=', ticketId)
    .executeTakeFirst();
  if (!before) throw new AppError('NOT_FOUND', 'Ticket not found');
  const after = await db
    .updateTable('support_tickets')
    .set({ status: 'closed', admin_remark: remark, closed_by: adminId, closed_at: new Date() })
    .where('id', '=', ticketId)
    .where('status', '=', 'open')
    .returning(['id', 'type', 'message', 'status', 'created_at', 'admin_remark'])
    .executeTakeFirst();
  if (!after) throw new AppError('CONFLICT', 'Ticket is already closed');
  return { before: toTicket(before), after: toTicket(after) };
}
