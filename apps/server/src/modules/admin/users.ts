import type { UserStatus } from '@app/core';
import { sql } from 'kysely';
import type { DB, Executor } from '../../db/types';
import { AppError } from '../../lib/errors';
import { paginate } from '../../lib/paginate';
import { deleteUserSessions } from '../auth/service';
import { audit } from './audit';

/** Users by e-mail, name or username (case-insensitive substring), newest first. */
export async function searchUsers(db: Executor, opts: { q?: string | undefined; page: number; perPage: number }) {
  let q = db.selectFrom('users');
  if (opts.q) {
    const like = `%${opts.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb(sql`lower(email)`, 'like', like.toLowerCase()), eb(sql`lower(name)`, 'like', like.toLowerCase()), eb('username', 'like', like.toUpperCase())]),
    );
  }
  const { rows, total } = await paginate(q, opts.page, opts.perPage, (p) =>
    p.select(['id', 'name', 'email', 'username', 'status', 'is_admin', 'eligible_level', 'created_at', 'email_verified_at']).orderBy('id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({
      id: String(r.id),
      name: r.name,
      email: r.email,
      username: r.username,
      status: r.status,
      is_admin: r.is_admin,
      eligible_level: r.eligible_level,
      verified: r.email_verified_at !== null,
      createdAt: r.created_at.toISOString(),
    })),
  };
}

/** Blocks (status 'blocked', every session revoked) or unblocks a user; audited. Admins cannot be blocked here. */
export async function setBlocked(db: DB, adminId: bigint, userId: bigint, blocked: boolean) {
  return db.transaction().execute(async (tx) => {
    const user = await tx.selectFrom('users').select(['id', 'status', 'is_admin', 'active_date']).where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    if (user.is_admin) throw new AppError('BAD_REQUEST', 'An admin cannot be blocked');
    // Unblocking restores what the user had earned: active once they have staked.
    const next: UserStatus = blocked ? 'blocked' : user.active_date ? 'active' : 'inactive';
    if (user.status === next) return { id: String(userId), status: next };
    await tx.updateTable('users').set({ status: next, updated_at: new Date() }).where('id', '=', userId).execute();
    if (blocked) await deleteUserSessions(tx, userId);
    await audit(tx, {
      adminId,
      action: blocked ? 'user.block' : 'user.unblock',
      targetType: 'user',
      targetId: userId,
      before: { status: user.status },
      after: { status: next },
    });
    return { id: String(userId), status: next };
  });
}
