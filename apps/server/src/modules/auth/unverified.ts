import { sql } from 'kysely';
import type { DB, Executor } from '../../db/types';
import * as ledger from '../ledger/service';
import * as team from '../team/service';
import '../users/table';

/** An account that has not verified its e-mail within this long is deleted (server design, section 9). */
export const UNVERIFIED_TTL_HOURS = 24;

/**
 * Deletes an unverified account with its challenges and sessions, and undoes its place in its
 * sponsor's team. Refuses (false) an account that has anything of its own: a verified e-mail, an
 * admin flag, a referral under it, or any money or payment history.
 */
export async function removeUnverifiedUser(tx: Executor, userId: bigint): Promise<boolean> {
  const r = await sql<{ referrer_id: bigint | null }>`
    select u.referrer_id from users u
    where u.id = ${userId} and u.email_verified_at is null and not u.is_admin
      and not exists (select 1 from users c where c.referrer_id = u.id)
      and not exists (select 1 from ledger_entries e where e.user_id = u.id)
      and not exists (select 1 from ledger_accounts a where a.user_id = u.id and a.balance <> 0)
      and not exists (select 1 from payments p where p.user_id = u.id)
      and not exists (select 1 from support_tickets t where t.user_id = u.id)
    for update of u`.execute(tx);
  const row = r.rows[0];
  if (!row) return false;
  await team.onUserRemoved(tx, userId, row.referrer_id);
  await ledger.forgetUnusedUser(tx, userId);
  await sql`delete from users where id = ${userId}`.execute(tx);
  return true;
}

/** The daily clean-up's part: every account unverified for over 24 hours, one transaction each. */
export async function deleteStaleUnverified(db: DB, limit = 500): Promise<number> {
  const stale = await db
    .selectFrom('users')
    .select('id')
    .where('email_verified_at', 'is', null)
    .where('created_at', '<', new Date(Date.now() - UNVERIFIED_TTL_HOURS * 3_600_000))
    .orderBy('id')
    .limit(limit)
    .execute();
  let removed = 0;
  for (const { id } of stale) if (await db.transaction().execute((tx) => removeUnverifiedUser(tx, id))) removed++;
  return removed;
}
