import { channel } from 'node:diagnostics_channel';
import { CURRENT_PASSWORD_WRONG_MESSAGE } from '@app/core';
import type { TSecurityInfo } from '@app/core/contracts';
import type { AppContext } from '../../context';
import { AppError, fieldError } from '../../lib/errors';
import {
  claimPasswordTry,
  clearLoginFailures,
  deleteUserSessions,
  dropStaleLoginFailures,
  forgetSessions,
  hashPassword,
  verifyPassword,
} from '../auth/service';
import { queueMail } from '../mail/service';
import '../users/table';

/** GET /api/user/security: the 2FA state and the user's live sessions, newest use first. */
export async function getSecurity(ctx: AppContext, userId: bigint, currentSessionId: bigint): Promise<TSecurityInfo> {
  const user = await ctx.db.selectFrom('users').select(['email', 'totp_enabled_at']).where('id', '=', userId).executeTakeFirstOrThrow();
  const sessions = await ctx.db
    .selectFrom('live_sessions')
    .select(['id', 'created_at', 'last_used_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return {
    two_factor_enabled: Boolean(user.totp_enabled_at),
    email: user.email,
    sessions: sessions.map((s) => ({
      id: String(s.id),
      created_at: s.created_at.toISOString(),
      last_used_at: s.last_used_at ? s.last_used_at.toISOString() : null,
      ip: s.ip,
      user_agent: s.user_agent,
      current: s.id === currentSessionId,
    })),
  };
}

/** DELETE /api/user/sessions/:id: only the caller's own sessions; any other id is 404. */
export async function revokeSession(ctx: AppContext, userId: bigint, sessionId: bigint): Promise<void> {
  forgetSessions({ sessionId });
  const gone = await ctx.db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).returning('id').executeTakeFirst();
  if (!gone) throw new AppError('NOT_FOUND', 'Session not found');
}

/**
 * Every comparison of a current password at change-password, published as it happens
 * (node:diagnostics_channel, like `codeCompared` in auth/guess-budget.ts): tests and operators can
 * count them without a hook in the code path. Nothing subscribes by default.
 */
export const passwordCompared = channel('usdt-stake:security:password-compared');
export interface PasswordComparedEvent {
  userId: bigint;
  /** 'good' or 'wrong' */
  result: string;
}

/**
 * A right current password sets the new one, signs every other device out and mails a notice.
 * Wrong current passwords count like wrong logins (server design, section 9; issue 29, finding 8),
 * on the same per-e-mail count: once the e-mail is in login back-off, every try here is refused
 * (429) before the password is checked, so a stolen session learns nothing more; the owner gets
 * back in with the mailed sign-in code (which ends the back-off) or a password reset.
 */
export async function changePassword(ctx: AppContext, userId: bigint, currentSessionId: bigint, current: string, next: string): Promise<void> {
  const user = await ctx.db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
  // The try is counted before the comparison (one atomic claim), so parallel tries compare at most
  // LOGIN_BACKOFF_AFTER wrong passwords; in back-off nothing is compared.
  if (!(await claimPasswordTry(ctx, user.email))) throw new AppError('TOO_MANY_ATTEMPTS');
  const good = await verifyPassword(user.password_hash, current);
  if (passwordCompared.hasSubscribers) passwordCompared.publish({ userId, result: good ? 'good' : 'wrong' } satisfies PasswordComparedEvent);
  if (!good) {
    await dropStaleLoginFailures(ctx);
    throw fieldError('current_password', CURRENT_PASSWORD_WRONG_MESSAGE);
  }
  // A right password ends the back-off count (and so gives its own claim back).
  await clearLoginFailures(ctx.db, ctx.secret, userId);
  const hash = await hashPassword(next);
  await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', userId).execute();
    await deleteUserSessions(tx, userId, currentSessionId);
    await queueMail(tx, userId, 'password_changed');
  });
}
