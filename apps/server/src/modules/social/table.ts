import type { Generated } from 'kysely';
import type { Id, Timestamp } from '../../db/types';

export type SocialProviderName = 'google' | 'facebook' | 'instagram';

export interface SocialLoginsTable {
  id: Id;
  state_hash: string;
  provider: SocialProviderName;
  nonce: string;
  code_verifier: string;
  ref: string | null;
  used: Generated<boolean>;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface SocialIdentitiesTable {
  id: Id;
  user_id: bigint;
  provider: SocialProviderName;
  subject: string;
  email: string | null;
  created_at: Timestamp;
}

export interface SocialSignupsTable {
  id: Id;
  cookie_hash: string;
  provider: SocialProviderName;
  subject: string;
  email: string;
  name: string;
  username: string;
  email_verified: boolean;
  user_id: bigint | null;
  completed_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

declare module '../../db/types' {
  interface Database {
    social_logins: SocialLoginsTable;
    social_identities: SocialIdentitiesTable;
    social_signups: SocialSignupsTable;
  }
}
