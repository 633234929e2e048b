import { z } from 'zod';
import { ZPageQuery } from '../schemas/common';
import { ZCreateTicketRequest, ZTicketIdParams, ZTicketReplyRequest } from '../schemas/support';
import { defineContract, pageOf, ZId, ZIsoTime } from './define';
import { ZTicketStatus } from '../statuses';

export const ZTicket = z.object({
  id: ZId,
  type: z.string(),
  message: z.string(),
  status: ZTicketStatus,
  createdAt: ZIsoTime,
  adminRemark: z.string().nullable(),
  /** every message after the first, oldest first: the user's and support's (issue 32, item 20) */
  replies: z.array(z.object({ author: z.enum(['user', 'admin']), message: z.string(), createdAt: ZIsoTime })),
});

export const support = {
  list: defineContract({
    method: 'GET',
    path: '/support',
    auth: 'user',
    tag: 'support',
    summary: 'My tickets, newest first, one page',
    query: ZPageQuery,
    data: pageOf(ZTicket),
  }),
  create: defineContract({
    method: 'POST',
    path: '/support',
    auth: 'user',
    tag: 'support',
    summary: 'Opens a ticket',
    body: ZCreateTicketRequest,
    data: ZTicket,
  }),
  reply: defineContract({
    method: 'POST',
    path: '/support/:id/reply',
    auth: 'user',
    tag: 'support',
    summary: 'Answers support on one of my tickets (it is open again, waiting for support)',
    params: ZTicketIdParams,
    body: ZTicketReplyRequest,
    data: ZTicket,
  }),
};

export type TTicket = z.output<typeof ZTicket>;
