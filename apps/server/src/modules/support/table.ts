import type { TicketStatus } from '@app/core';
import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../../db/types';

export interface SupportTicketsTable {
  id: Id;
  user_id: bigint;
  type: string;
  message: string;
  /** 'open': waiting for support; 'answered': an admin replied, waiting for the user; 'closed'. */
  status: Generated<TicketStatus>;
  admin_remark: string | null;
  closed_by: bigint | null;
  closed_at: Timestamp | null;
  created_at: Timestamp;
}

/** Every message of a ticket after the first (migration 0160). */
export interface SupportTicketRepliesTable {
  id: Id;
  ticket_id: bigint;
  author: 'user' | 'admin';
  author_id: bigint;
  message: string;
  created_at: Generated<Date>;
}

declare module '../../db/types' {
  interface Database {
    support_tickets: SupportTicketsTable;
    support_ticket_replies: SupportTicketRepliesTable;
  }
}
