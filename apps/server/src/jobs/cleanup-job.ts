import type { AppContext } from '../context';
import { purgeExpired as purgeAuth } from '../modules/auth/service';
import { purgeExpired as purgeMail } from '../modules/mail/service';
import { purgeExpired as purgeSocial } from '../modules/social/service';
import type { Job } from './scheduler';

/** A module's part of the clean-up: it deletes its own expired rows and counts them per table. */
type Purge = (ctx: AppContext) => Promise<Record<string, number>>;

/** Every module that keeps rows with an end of life; each knows its tables, this job none. */
const purges: readonly Purge[] = [purgeAuth, purgeSocial, purgeMail];

/**
 * The daily clean-up (server design, section 9): expired sessions, challenges and sign-in trips,
 * accounts never verified within 24 hours, and sent mail older than 90 days. Each delete is
 * idempotent, so a run from several processes or a repeated run is harmless.
 */
export async function runCleanup(ctx: AppContext): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const purge of purges) Object.assign(counts, await purge(ctx));
  return counts;
}

export const cleanupJob: Job = { name: 'cleanup:daily', intervalMs: 24 * 3_600_000, run: runCleanup };
