import { createHmac, randomBytes } from 'node:crypto';
import type { Executor, Id, Timestamp } from '../../db/types';

export interface SessionsTable {
  id: Id;
  user_id: bigint;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}
declare module '../../db/types' {
  interface Database {
    sessions: SessionsTable;
  }
}

const SESSION_DAYS = 30;

export interface SessionUser {
  id: bigint;
  username: string;
  name: string;
  email: string;
  status: 'inactive' | 'active' | 'blocked';
  is_admin: boolean;
}

/** Tokens are opaque random strings; only their keyed hash is stored, so a database leak yields no usable token. */
export function hashToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

export async function createSession(db: Executor, secret: string, userId: bigint): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: hashToken(secret, token), expires_at: new Date(Date.now() + SESSION_DAYS * 86_400_000) })
    .execute();
  return token;
}

export async function findSessionUser(db: Executor, secret: string, token: string): Promise<SessionUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.username', 'users.name', 'users.email', 'users.status', 'users.is_admin'])
    .where('sessions.token_hash', '=', hashToken(secret, token))
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
}

export async function deleteSession(db: Executor, secret: string, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(secret, token)).execute();
}

/** Blocking a user revokes every session they hold. */
export async function deleteUserSessions(db: Executor, userId: bigint): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
