import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../../db/types';

export interface SupportTicketsTable {
  id: Id;
  user_id: bigint;
  type: string;
  message: string;
  status: Generated<'open' | 'closed'>;
  admin_remark: string | null;
  closed_by: bigint | null;
  closed_at: Timestamp | null;
  created_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    support_tickets: SupportTicketsTable;
  }
}
