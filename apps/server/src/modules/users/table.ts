import type { UserStatus } from '@app/core';
import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../../db/types';

export interface UsersTable {
  id: Id;
  name: string;
  email: string;
  username: string;
  password_hash: string | null;
  referrer_id: bigint | null;
  status: Generated<UserStatus>;
  is_admin: Generated<boolean>;
  email_verified_at: Timestamp | null;
  active_date: string | null;
  eligible_level: Generated<number>;
  avatar: string | null;
  /** TOTP secret, AES-256-GCM under a key derived from SESSION_SECRET; set at 2FA set-up. */
  totp_secret_enc: string | null;
  /** Set when 2FA is on. */
  totp_enabled_at: Timestamp | null;
  /** The last accepted TOTP time step: a step is accepted once (no replay). */
  totp_last_step: bigint | null;
  /** Wrong passwords since the last good login; past a threshold a login also needs a mailed code. */
  failed_logins: Generated<number>;
  /** Set when an unverified account that the ledger still references was removed (auth/unverified.ts): no e-mail, no sign-in. */
  removed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    users: UsersTable;
  }
}
