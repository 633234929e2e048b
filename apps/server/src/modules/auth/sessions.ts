import { createHmac, randomBytes } from 'node:crypto';
import type { Executor, Id, Timestamp } from '../../db/types';

export interface SessionsTable {
  id: Id;
  user_id: bigint;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
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
  /** the session this request came with (kept when the user revokes the others) */
  session_id: bigint;
}

/** Tokens are opaque random strings; only their keyed hash is stored, so a database leak yields no usable token. */
export function hashToken(secret: string, token: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

/** Where a session was opened from, shown on /security. */
export interface SessionMeta {
  ip?: string | undefined;
  userAgent?: string | undefined;
}

export async function createSession(db: Executor, secret: string, userId: bigint, meta: SessionMeta = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(secret, token),
      expires_at: new Date(Date.now() + SESSION_DAYS * 86_400_000),
      last_used_at: new Date(),
      ip: meta.ip?.slice(0, 64) ?? null,
      user_agent: meta.userAgent?.replace(/\0/g, '').slice(0, 300) ?? null,
    })
    .execute();
  return token;
}

/** last_used_at is written at most this often per session, so a read stays a read. */
const TOUCH_MS = 5 * 60_000;

export async function findSessionUser(db: Executor, secret: string, token: string): Promise<SessionUser | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.id', 'users.username', 'users.name', 'users.email', 'users.status', 'users.is_admin', 'sessions.id as session_id', 'sessions.last_used_at'])
    .where('sessions.token_hash', '=', hashToken(secret, token))
    .where('sessions.expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) return undefined;
  const { last_used_at, ...user } = row;
  if (!last_used_at || Date.now() - last_used_at.getTime() > TOUCH_MS) {
    // Not awaited by the reader: a lost touch only makes 'last used' a little older.
    void db
      .updateTable('sessions')
      .set({ last_used_at: new Date() })
      .where('id', '=', row.session_id)
      .execute()
      .catch(() => undefined);
  }
  return user;
}

export async function deleteSession(db: Executor, secret: string, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(secret, token)).execute();
}

/** Blocking a user, a password reset or change revokes every session they hold (but `keep`). */
export async function deleteUserSessions(db: Executor, userId: bigint, keep?: bigint): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== undefined) q = q.where('id', '<>', keep);
  await q.execute();
}
