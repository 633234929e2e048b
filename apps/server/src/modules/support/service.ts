import { SUPPORT_MAX_OPEN_TICKETS, SUPPORT_MAX_USER_REPLIES, type TCreateTicketRequest, type TicketStatus } from '@app/core';
import { sql } from 'kysely';
import type { TTicket } from '@app/core/contracts';
import type { DB, Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import { paginate } from '../../lib/paginate';
import { queueMail } from '../mail/service';
import './table';

const TOO_MANY_OPEN = 'You have too many open tickets. Please wait for a reply.';

/**
 * The user's ticket lock, held to the end of the transaction: creates and reopening replies take
 * it before they count open tickets, so parallel ones cannot all count the same tickets ("the
 * small doors", finding 5).
 */
async function lockUserTickets(tx: Executor, userId: bigint): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`support:open:${userId}`}, 0))`.execute(tx);
}

/** 429 (the create's answer since the start) when the user already has SUPPORT_MAX_OPEN_TICKETS open tickets; under lockUserTickets. */
async function refuseOverOpenCap(tx: Executor, userId: bigint): Promise<void> {
  const open = await tx
    .selectFrom('support_tickets')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  if (Number(open.n) >= SUPPORT_MAX_OPEN_TICKETS) throw new AppError('RATE_LIMITED', TOO_MANY_OPEN);
}

type TicketRow = { id: bigint; type: string; message: string; status: TicketStatus; created_at: Date; admin_remark: string | null };
type Reply = TTicket['replies'][number];

function toTicket(r: TicketRow, replies: Reply[] = []): TTicket {
  return {
    id: String(r.id),
    type: r.type,
    message: r.message,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    adminRemark: r.admin_remark,
    replies,
  };
}

/** The replies of these tickets, oldest first, by ticket id (one query for a page). */
async function repliesOf(db: Executor, ticketIds: bigint[]): Promise<Map<string, Reply[]>> {
  const out = new Map<string, Reply[]>();
  if (!ticketIds.length) return out;
  const rows = await db
    .selectFrom('support_ticket_replies')
    .select(['ticket_id', 'author', 'message', 'created_at'])
    .where('ticket_id', 'in', ticketIds)
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const key = String(r.ticket_id);
    out.set(key, [...(out.get(key) ?? []), { author: r.author, message: r.message, createdAt: r.created_at.toISOString() }]);
  }
  return out;
}

const TICKET_COLUMNS = ['id', 'type', 'message', 'status', 'created_at', 'admin_remark'] as const;

/** One page of the user's own tickets, newest first (a user never sees another user's tickets). */
export async function listTickets(db: Executor, userId: bigint, opts: { page: number; perPage: number }): Promise<{ rows: TTicket[]; total: number }> {
  const q = db.selectFrom('support_tickets').where('user_id', '=', userId);
  const { rows, total } = await paginate(q, opts.page, opts.perPage, (p) => p.select(TICKET_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc'));
  const replies = await repliesOf(
    db,
    rows.map((r) => r.id),
  );
  return { total, rows: rows.map((r) => toTicket(r, replies.get(String(r.id)))) };
}

/** Opens a ticket; the payload was trimmed and sanitised by the shared schema. */
export async function createTicket(db: DB, userId: bigint, input: TCreateTicketRequest): Promise<TTicket> {
  return db.transaction().execute(async (tx) => {
    // A cap on open tickets keeps one account from flooding the support queue.
    await lockUserTickets(tx, userId);
    await refuseOverOpenCap(tx, userId);
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
  opts: { status?: 'open' | 'answered' | 'closed' | undefined; page: number; perPage: number },
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
  const replies = await repliesOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    total,
    rows: rows.map((r) => ({
      ...toTicket(r, replies.get(String(r.id))),
      closedAt: r.closed_at ? r.closed_at.toISOString() : null,
      user: { id: String(r.user_id), username: r.username, email: r.email, name: r.name },
    })),
  };
}

/**
 * The user answers support on their own ticket (404 for anyone else's): the message is added and
 * the ticket is 'open' again, waiting for support, whatever it was (a closed one reopens). A reply
 * that reopens counts against the open-tickets cap like a create, and a ticket takes at most
 * SUPPORT_MAX_USER_REPLIES replies of its user (400 past it).
 */
export async function replyAsUser(db: DB, userId: bigint, ticketId: bigint, message: string): Promise<TTicket> {
  return db.transaction().execute(async (tx) => {
    const owned = await tx.selectFrom('support_tickets').select('id').where('id', '=', ticketId).where('user_id', '=', userId).executeTakeFirst();
    if (!owned) throw new AppError('NOT_FOUND', 'Ticket not found');
    // The user's lock first, then the ticket's row (the order every create and reply takes them in).
    await lockUserTickets(tx, userId);
    const ticket = await tx.selectFrom('support_tickets').select('status').where('id', '=', ticketId).forUpdate().executeTakeFirstOrThrow();
    if (ticket.status !== 'open') await refuseOverOpenCap(tx, userId);
    const replies = await tx
      .selectFrom('support_ticket_replies')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('ticket_id', '=', ticketId)
      .where('author', '=', 'user')
      .executeTakeFirstOrThrow();
    if (Number(replies.n) >= SUPPORT_MAX_USER_REPLIES)
      throw new AppError('BAD_REQUEST', `This ticket has reached its limit of ${SUPPORT_MAX_USER_REPLIES} replies. Please open a new ticket.`);
    await tx.insertInto('support_ticket_replies').values({ ticket_id: ticketId, author: 'user', author_id: userId, message }).execute();
    const row = await tx.updateTable('support_tickets').set({ status: 'open' }).where('id', '=', ticketId).returning(TICKET_COLUMNS).executeTakeFirstOrThrow();
    return toTicket(row, (await repliesOf(tx, [ticketId])).get(String(ticketId)));
  });
}

/**
 * Support answers a ticket (in the caller's transaction, with its audit): the message is added,
 * it becomes the Admin Response, the ticket is 'answered' (or 'closed' when closing) and the user
 * gets a mail, written in the same transaction so it exists exactly when the answer does.
 * Returns before/after for the audit log.
 */
async function answer(
  tx: Executor,
  ticketId: bigint,
  adminId: bigint,
  message: string,
  status: 'answered' | 'closed',
): Promise<{ before: TTicket; after: TTicket }> {
  const before = await tx
    .selectFrom('support_tickets')
    .select([...TICKET_COLUMNS, 'user_id'])
    .where('id', '=', ticketId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new AppError('NOT_FOUND', 'Ticket not found');
  if (before.status === 'closed') throw new AppError('CONFLICT', 'Ticket is already closed');
  await tx.insertInto('support_ticket_replies').values({ ticket_id: ticketId, author: 'admin', author_id: adminId, message }).execute();
  const after = await tx
    .updateTable('support_tickets')
    .set({ status, admin_remark: message, ...(status === 'closed' ? { closed_by: adminId, closed_at: new Date() } : {}) })
    .where('id', '=', ticketId)
    .returning(TICKET_COLUMNS)
    .executeTakeFirstOrThrow();
  await queueMail(tx, before.user_id, 'ticket_answered', { ticket: String(ticketId), subject: before.type, message, closed: status === 'closed' ? 'yes' : '' });
  const replies = (await repliesOf(tx, [ticketId])).get(String(ticketId));
  return { before: toTicket(before), after: toTicket(after, replies) };
}

/** An admin's reply: the ticket is 'answered', waiting for the user. */
export function replyAsAdmin(tx: Executor, ticketId: bigint, adminId: bigint, message: string): Promise<{ before: TTicket; after: TTicket }> {
  return answer(tx, ticketId, adminId, message, 'answered');
}

/** Closes a ticket with the admin's remark (a last answer, mailed too); closing twice is refused. */
export function closeTicket(tx: Executor, ticketId: bigint, adminId: bigint, remark: string): Promise<{ before: TTicket; after: TTicket }> {
  return answer(tx, ticketId, adminId, remark, 'closed');
}
