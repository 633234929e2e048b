import { randomBytes } from 'node:crypto';
import type { Executor, Id, Timestamp } from '../../db/types';
import { sql } from 'kysely';
import { appErrorFor } from '../../lib/db-errors';
import { hashToken } from './token-hash';

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
    /** the sessions that are live: the one validity rule (migration 0181), read instead of sessions */
    live_sessions: SessionsTable;
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

export { hashToken };

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
  return findSessionUserByHash(db, hashToken(secret, token));
}

/**
 * The live session of a token hash, through the one session predicate `app_session` (migration
 * 0181; db/schema.sql): the session row exists (revoking deletes it) and has not expired.
 */
async function findSessionUserByHash(db: Executor, tokenHash: string): Promise<SessionUser | undefined> {
  const res = await sql<SessionUser & { last_used_at: Date | null }>`
    select u.id, u.username, u.name, u.email, s.status, u.is_admin, s.session_id, s.last_used_at
    from app_session(${tokenHash}) s join users u on u.id = s.user_id`.execute(db);
  const row = res.rows[0];
  if (!row) return undefined;
  const { last_used_at, ...user } = row;
  touchSession(db, row.session_id, last_used_at);
  return user;
}

/** Writes a session's last_used_at when it is older than TOUCH_MS (a statement that read the session calls this). */
export function touchSession(db: Executor, sessionId: bigint, lastUsedAt: Date | null): void {
  if (lastUsedAt && Date.now() - lastUsedAt.getTime() <= TOUCH_MS) return;
  // Not awaited by the reader: a lost touch only makes 'last used' a little older.
  void db
    .updateTable('sessions')
    .set({ last_used_at: new Date() })
    .where('id', '=', sessionId)
    .execute()
    .catch(() => undefined);
}

/**
 * Session cache for the hot routes whose data statement checks the session again (wallet,
 * get-info, transfer; see docs/decisions/2026-11-23-session-cache.md). It only saves the
 * separate session round trip in front of that statement: an entry never decides an answer on its
 * own, because the statement itself reads the session row and the user's status, so a revoked token
 * is refused (401) and a blocked user (403) on the very next request, in any process. Only
 * sessions of users who are not blocked are cached; an entry lives SESSION_CACHE_MS at most and is
 * dropped at once in this process by every revocation below.
 */
export const SESSION_CACHE_MS = 2_000;
const SESSION_CACHE_MAX = 10_000;
const sessionCache = new Map<string, { user: SessionUser; until: number }>();

/**
 * The session user of a token hash: from the cache when fresh (`cached` true), else one read
 * (which fills it). A cached answer must be confirmed before any answer other than the route's own
 * statement's (see recheckCachedSession).
 */
export async function findSessionUserCached(db: Executor, tokenHash: string): Promise<{ user: SessionUser | undefined; cached: boolean }> {
  const now = Date.now();
  const hit = sessionCache.get(tokenHash);
  if (hit && hit.until > now) return { user: hit.user, cached: true };
  const user = await findSessionUserByHash(db, tokenHash);
  if (!user || user.status === 'blocked') {
    sessionCache.delete(tokenHash);
    return { user, cached: false };
  }
  // Bounded: a flood of distinct tokens empties the cache instead of growing it.
  if (sessionCache.size >= SESSION_CACHE_MAX) sessionCache.clear();
  sessionCache.set(tokenHash, { user, until: now + SESSION_CACHE_MS });
  return { user, cached: false };
}

/**
 * A request let in from the cache is about to be refused by something other than the statement
 * that checks the session (the body's validation, a malformed body, an error before the
 * statement): the session is read again first, uncached, and a revoked token or a blocked user
 * gets its 401/403 (thrown, by sessionCheck) instead, so a caller without rights never learns
 * the payload rules, even when the revocation happened in another process within the cache's 2 s.
 */
export async function recheckCachedSession(db: Executor, tokenHash: string): Promise<void> {
  sessionCache.delete(tokenHash);
  const user = await findSessionUserByHash(db, tokenHash);
  sessionCheck(user?.status);
}

/** Drops cached sessions: one token hash, or every session of a user (but `keepSessionId`). */
export function forgetSessions(by: { tokenHash?: string; userId?: bigint; sessionId?: bigint; keepSessionId?: bigint }): void {
  if (by.tokenHash !== undefined) sessionCache.delete(by.tokenHash);
  if (by.userId === undefined && by.sessionId === undefined) return;
  for (const [hash, { user }] of sessionCache) {
    const match = by.sessionId !== undefined ? user.session_id === by.sessionId : user.id === by.userId && user.session_id !== by.keepSessionId;
    if (match) sessionCache.delete(hash);
  }
}

/**
 * What the statement of a `sessionRechecked` route read about the session: null/undefined when the
 * token no longer names a live session (revoked, expired), else the user's status. Throws the same
 * 401/403 the authentication hook does, so a revocation or a block takes effect on the next request.
 */
export function sessionCheck(status: string | null | undefined): void {
  // The same codes app_transfer_as raises for the same two cases (lib/db-errors.ts).
  if (!status) throw appErrorFor('US001');
  if (status === 'blocked') throw appErrorFor('US002');
}

export async function deleteSession(db: Executor, secret: string, token: string): Promise<void> {
  forgetSessions({ tokenHash: hashToken(secret, token) });
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(secret, token)).execute();
}

/** Blocking a user, a password reset or change revokes every session they hold (but `keep`). */
export async function deleteUserSessions(db: Executor, userId: bigint, keep?: bigint): Promise<void> {
  forgetSessions({ userId, ...(keep !== undefined ? { keepSessionId: keep } : {}) });
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== undefined) q = q.where('id', '<>', keep);
  await q.execute();
}
