import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../../db/types';

export interface UsersTable {
  id: Id;
  name: string;
  email: string;
  username: string;
  password_hash: string | null;
  referrer_id: bigint | null;
  status: Generated<'inactive' | 'active' | 'blocked'>;
  is_admin: Generated<boolean>;
  email_verified_at: Timestamp | null;
  active_date: string | null;
  eligible_level: Generated<number>;
  avatar: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    users: UsersTable;
  }
}
