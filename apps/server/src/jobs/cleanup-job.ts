import { sql } from 'kysely';
import type { AppContext } from '../context';
import { deleteStaleUnverified } from '../modules/auth/service';
import { forgetIdleBudgets } from '../modules/auth/guess-budget';
import type { Job } from './scheduler';

/**
 * The daily clean-up (server design, section 9): expired sessions, challenges and sign-in trips,
 * accounts never verified within 24 hours, and sent mail older than 90 days. Each delete is
 * idempotent, so a run from several processes or a repeated run is harmless.
 */
export async function runCleanup(ctx: AppContext): Promise<Record<string, number>> {
  const count = async (q: ReturnType<typeof sql>) => Number((await q.execute(ctx.db)).numAffectedRows ?? 0n);
  const dayAgo = new Date(Date.now() - 86_400_000);
  return {
    sessions: await count(sql`delete from sessions where expires_at < now()`),
    otp_challenges: await count(sql`delete from otp_challenges where expires_at < ${dayAgo}`),
    login_challenges: await count(sql`delete from login_challenges where expires_at < ${dayAgo}`),
    social_logins: await count(sql`delete from social_logins where expires_at < ${dayAgo}`),
    social_signups: await count(sql`delete from social_signups where expires_at < ${dayAgo} and completed_at is null`),
    unverified_users: await deleteStaleUnverified(ctx.db),
    guess_budgets: await forgetIdleBudgets(ctx.db, ctx.now()),
    sent_mail: await count(sql`delete from mail_outbox where status = 'sent' and sent_at < now() - interval '90 days'`),
  };
}

export const cleanupJob: Job = { name: 'cleanup:daily', intervalMs: 24 * 3_600_000, run: runCleanup };
