import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { forgetIdleBudgets } from './guess-budget';
import { deleteStaleUnverified } from './unverified';

const deleted = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0n);

/**
 * Auth's part of the daily clean-up (server design, section 9): expired sessions; sign-in and
 * 2FA challenges a day past their expiry; accounts never verified within 24 hours; guess budgets
 * with nothing left to count. Each delete is idempotent.
 */
export async function purgeExpired(ctx: Pick<AppContext, 'db' | 'now'>): Promise<Record<string, number>> {
  const dayAgo = new Date(Date.now() - 86_400_000);
  return {
    sessions: deleted(await sql`delete from sessions where expires_at < now()`.execute(ctx.db)),
    otp_challenges: deleted(await sql`delete from otp_challenges where expires_at < ${dayAgo}`.execute(ctx.db)),
    login_challenges: deleted(await sql`delete from login_challenges where expires_at < ${dayAgo}`.execute(ctx.db)),
    unverified_users: await deleteStaleUnverified(ctx.db),
    guess_budgets: await forgetIdleBudgets(ctx.db, ctx.now()),
  };
}
