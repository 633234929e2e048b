import { sql } from 'kysely';
import type { DB, Tx } from '../../db/types';
import * as ledger from '../ledger/service';
import * as team from '../team/service';
import '../users/table';

/** An account that has not verified its e-mail within this long is deleted (server design, section 9). */
export const UNVERIFIED_TTL_HOURS = 24;

/** Ledger entry kinds of what a removed unverified account held (docs/security.md, "The mailbox wins"). */
export const UNVERIFIED_REVERSAL_KIND = 'unverified_transfer_reversal';
export const UNVERIFIED_SUSPENSE_KIND = 'unverified_suspense';

/**
 * Removes an unverified account: the mailbox wins whatever the account holds (server design,
 * section 9). Refuses (false) only an account that is verified, an admin, already removed, or has
 * a referral under it (an unverified account cannot sponsor, so none should).
 *
 * Unverified accounts take no transfer (app_transfer, migration 0190), but one may hold money from
 * before that: each incoming transfer goes back to its sender (newest first, up to what is left),
 * and what no transfer explains goes to the suspense system account, each as a ledger entry
 * through the one posting implementation. Its place in its sponsor's team goes. An account the
 * ledger (or any history) no longer references is deleted with its challenges and sessions; one
 * it does is kept as a removed row: no e-mail (a free address), no password, name, sponsor,
 * sessions or challenges, blocked, `removed_at` set.
 */
export async function removeUnverifiedUser(tx: Tx, userId: bigint): Promise<boolean> {
  // The row is locked first; what it holds is read after, so a transfer that committed before the
  // lock is seen (and none can follow: app_transfer refuses an unverified receiver).
  const r = await sql<{ referrer_id: bigint | null }>`
    select u.referrer_id from users u
    where u.id = ${userId} and u.email_verified_at is null and u.removed_at is null and not u.is_admin
      and not exists (select 1 from users c where c.referrer_id = u.id)
    for update of u`.execute(tx);
  const row = r.rows[0];
  if (!row) return false;
  await giveBack(tx, userId);
  await team.onUserRemoved(tx, userId, row.referrer_id);
  await ledger.forgetUnusedUser(tx, userId);
  const kept = await sql<{ kept: boolean }>`
    select exists (select 1 from ledger_accounts a where a.user_id = ${userId})
      or exists (select 1 from ledger_entries e where e.user_id = ${userId})
      or exists (select 1 from income_records i where i.user_id = ${userId})
      or exists (select 1 from transfers t where t.sender_id = ${userId} or t.receiver_id = ${userId})
      or exists (select 1 from payments p where p.user_id = ${userId})
      or exists (select 1 from support_tickets s where s.user_id = ${userId})
      or exists (select 1 from stakes s where s.user_id = ${userId})
      or exists (select 1 from withdrawals w where w.user_id = ${userId})
      or exists (select 1 from custody_accounts c where c.user_id = ${userId}) as kept`.execute(tx);
  if (!kept.rows[0]?.kept) {
    await sql`delete from users where id = ${userId}`.execute(tx);
    return true;
  }
  await sql`
    update users set email = 'removed-' || id || '@removed.invalid', name = 'Removed account', password_hash = null, referrer_id = null,
      avatar = null, status = 'blocked', totp_secret_enc = null, totp_enabled_at = null, removed_at = now(), updated_at = now()
    where id = ${userId}`.execute(tx);
  // Its own team rows again, as a member of nobody's team (every user has them).
  await team.onUserCreated(tx, userId, null);
  await sql`with a as (delete from sessions where user_id = ${userId}), b as (delete from otp_challenges where user_id = ${userId}),
      c as (delete from login_challenges where user_id = ${userId}), d as (delete from recovery_codes where user_id = ${userId})
    delete from social_identities where user_id = ${userId}`.execute(tx);
  return true;
}

/**
 * Empties an unverified account's two balances: each incoming transfer of that balance back to its
 * sender (newest first; a reversal entry keyed by the transfer, so it is made once), the rest (an
 * origin no transfer explains) to the suspense system account.
 */
async function giveBack(tx: Tx, userId: bigint): Promise<void> {
  const balances = await ledger.getBalances(tx, userId);
  for (const kind of ['deposit', 'income'] as const) {
    let left = balances[kind];
    if (left <= 0n) continue;
    const incoming = await tx
      .selectFrom('transfers')
      .select(['id', 'sender_id', 'amount'])
      .where('receiver_id', '=', userId)
      .where('type', '=', kind === 'deposit' ? 'deposit' : 'withdraw')
      .orderBy('id', 'desc')
      .execute();
    for (const t of incoming) {
      if (left <= 0n) break;
      const back = BigInt(t.amount) < left ? BigInt(t.amount) : left;
      const res = await ledger.post(tx, {
        key: `unverified-reversal:transfer:${t.id}`,
        kind: UNVERIFIED_REVERSAL_KIND,
        userId: t.sender_id,
        memo: `Transfer #${t.id} returned: its receiver never verified its e-mail`,
        postings: [
          { account: ledger.userAccount(userId, kind), amount: -back },
          { account: ledger.userAccount(t.sender_id, kind), amount: back },
        ],
      });
      if (res.created) left -= back;
    }
    if (left > 0n)
      await ledger.post(tx, {
        key: `unverified-suspense:${userId}:${kind}`,
        kind: UNVERIFIED_SUSPENSE_KIND,
        userId: null,
        memo: `The ${kind} balance of unverified user #${userId}, removed, of no known origin`,
        postings: [
          { account: ledger.userAccount(userId, kind), amount: -left },
          { account: ledger.systemAccount(ledger.SYSTEM.suspense), amount: left },
        ],
      });
  }
}

/** The daily clean-up's part: every account unverified for over 24 hours, one transaction each. */
export async function deleteStaleUnverified(db: DB, limit = 500): Promise<number> {
  const stale = await db
    .selectFrom('users')
    .select('id')
    .where('email_verified_at', 'is', null)
    .where('removed_at', 'is', null)
    .where('created_at', '<', new Date(Date.now() - UNVERIFIED_TTL_HOURS * 3_600_000))
    .orderBy('id')
    .limit(limit)
    .execute();
  let removed = 0;
  for (const { id } of stale) if (await db.transaction().execute((tx) => removeUnverifiedUser(tx, id))) removed++;
  return removed;
}
