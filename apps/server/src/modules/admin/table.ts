import type { ColumnType } from 'kysely';
import type { Id, Timestamp } from '../../db/types';

type Json = ColumnType<unknown, string | null, string | null>;

export interface AdminAuditLogTable {
  id: Id;
  admin_id: bigint | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: Json | null;
  after: Json | null;
  created_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    admin_audit_log: AdminAuditLogTable;
  }
}
