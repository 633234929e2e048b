import { z } from 'zod';
import { ZPageQuery } from '../schemas/common';
import { ZCreateTicketRequest } from '../schemas/support';
import { defineContract, pageOf, ZId, ZIsoTime } from './define';

export const ZTicket = z.object({
  id: ZId,
  type: z.string(),
  message: z.string(),
  status: z.string(),
  createdAt: ZIsoTime,
  adminRemark: z.string().nullable(),
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
};

export type TTicket = z.output<typeof ZTicket>;
