import { sql, type RawBuilder } from 'kysely';
import type { DB, Executor, Tx } from '../../db/types';
import { dbError } from '../../lib/db-errors';
import type { AccountRef, UserAccountKind } from './accounts';
import { verifyTotals, type MismatchedTotal } from './totals';
import './table';

export * from './accounts';

export interface PostingInput {
  account: AccountRef;
  /** micro-units; positive raises the account's balance, negative lowers it */
  amount: bigint;
}
export interface EntryInput {
  /** unique per business event (`roi:<stake>:<yyyy-mm-dd>`, `referral:<stake>` …): the same event posts once */
  key: string;
  kind: string;
  userId?: bigint | null;
  memo?: string;
  postings: PostingInput[];
}
export interface PostResult {
  entryId: bigint | null;
  /** false when an entry with the same key already existed: nothing was written */
  created: boolean;
}

/**
 * Posts one balanced entry through the database's one implementation of the posting rules,
 * `app_post_many` (migration 0180; db/schema.sql): the only code that changes a balance, also called
 * by the transfer and the ROI chunk.
 * - Idempotent: a second post with the same key writes nothing and returns created=false.
 * - Users, then accounts, are locked in one fixed order (system accounts first, then by user id
 *   and kind), so two entries over the same accounts cannot deadlock.
 * - A debit that would take a user account below zero fails the whole entry with
 *   'Insufficient balance' (conditional update; the CHECK constraint is the last line of defence).
 * - An entry needs two or more non-zero postings (legs on one account are merged) summing to zero.
 * Must run inside the caller's transaction so the entry and the business rows commit together.
 */
export async function post(tx: Tx, entry: EntryInput): Promise<PostResult> {
  return (await postMany(tx, [entry]))[0]!;
}

/**
 * Posts several entries in one call of the same function (one round trip, one lock of each
 * account however many entries touch it): what a batch of credits (the chain watcher's tick) uses
 * instead of a call per entry. Same rules as post(), per entry: an entry whose key exists is
 * skipped (created=false), the others are written; a debit below zero fails the whole call.
 * Results are in the order of `entries`.
 */
export async function postMany(tx: Tx, entries: EntryInput[]): Promise<PostResult[]> {
  if (!entries.length) return [];
  const legs = entries.flatMap((e, i) => e.postings.map((p) => ({ entry: i + 1, p })));
  try {
    const res = await sql<{ o_ord: number; o_entry_id: bigint }>`
      select o_ord, o_entry_id from app_post_many(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.kind)}::text[],
        ${entries.map((e) => (e.userId == null ? null : e.userId.toString()))}::bigint[], ${entries.map((e) => e.memo ?? null)}::text[],
        ${legs.map((l) => l.entry)}::int[], ${legs.map(({ p }) => ('system' in p.account ? null : p.account.userId.toString()))}::bigint[],
        ${legs.map(({ p }) => ('system' in p.account ? p.account.system : p.account.kind))}::text[], ${legs.map(({ p }) => p.amount.toString())}::bigint[],
        ${legs.map(() => null)}::bigint[])`.execute(tx);
    const created = new Map(res.rows.map((r) => [Number(r.o_ord), BigInt(r.o_entry_id)]));
    return entries.map((_, i) => {
      const id = created.get(i + 1);
      return id === undefined ? { entryId: null, created: false } : { entryId: id, created: true };
    });
  } catch (err) {
    const known = dbError(err);
    if (known?.code === 'INSUFFICIENT_BALANCE') throw known;
    if ((err as { code?: string }).code === 'UL002') {
      const keys = entries.length === 1 ? entries[0]!.key : `${entries.length} entries`;
      throw new Error(`ledger entry ${keys} does not balance: ${(err as Error).message}`, { cause: err });
    }
    throw err;
  }
}

export interface UserBalances {
  deposit: bigint;
  income: bigint;
}

/** Cached balances of a user's two accounts (zero when the account does not exist yet). */
export async function getBalances(db: Executor, userId: bigint): Promise<UserBalances> {
  const rows = await db.selectFrom('ledger_accounts').select(['kind', 'balance']).where('user_id', '=', userId).execute();
  const out: UserBalances = { deposit: 0n, income: 0n };
  for (const r of rows) if (r.kind === 'deposit' || r.kind === 'income') out[r.kind as UserAccountKind] = BigInt(r.balance);
  return out;
}

/** Balance of a system account (zero when never used). */
export async function getSystemBalance(db: Executor, kind: string): Promise<bigint> {
  const row = await db.selectFrom('ledger_accounts').select('balance').where('user_id', 'is', null).where('kind', '=', kind).executeTakeFirst();
  return row ? BigInt(row.balance) : 0n;
}

/**
 * Runs `work` in a transaction of its own with a larger work_mem (verify's aggregates), or in the
 * caller's. `merge`: the planner may neither hash nor hash-aggregate (the per-stake check, below).
 */
async function inOwnTx<T>(db: Executor, work: (tx: Executor) => Promise<T>, opts: { merge?: boolean } = {}): Promise<T> {
  if (db.isTransaction) return work(db);
  return (db as DB).transaction().execute(async (tx) => {
    await sql`set local work_mem = '256MB'`.execute(tx);
    if (opts.merge) {
      await sql`set local enable_hashagg = off`.execute(tx);
      await sql`set local enable_hashjoin = off`.execute(tx);
    }
    return work(tx);
  });
}

export interface VerifyReport {
  ok: boolean;
  entries: number;
  accounts: number;
  unbalancedEntries: { entryId: string; sum: string }[];
  mismatchedAccounts: { accountId: string; cached: string; posted: string }[];
  negativeUserAccounts: { accountId: string; userId: string; balance: string }[];
  /** users whose roi/referral/reward income total differs from their income records (ROI: stakes' roi_paid) or income postings */
  mismatchedTotals: MismatchedTotal[];
  /**
   * stakes whose roi_paid differs from the ROI posted for them (postings naming the stake), or
   * whose number of credits is not the number of days from start to last ROI day (credits, days)
   */
  mismatchedStakes: { stakeId: string; userId: string; paid: string; posted: string; credits?: number; days?: number }[];
  totalOfAllBalances: string;
}

/**
 * Proves the ledger: every entry sums to zero and has postings; every cached balance equals the
 * sum of its postings; no user balance is negative; all balances together sum to zero; each
 * user's income totals equal their income records and their income postings (verifyTotals); each
 * stake's roi_paid equals the ROI posted for it.
 */
export async function verify(db: Executor): Promise<VerifyReport> {
  // The checks are independent: on PostgreSQL each runs on its own pooled connection at once
  // (a 1,000,000-entry ledger uses both cores), with room to hash its aggregates in memory
  // (work_mem); PGlite's one connection takes them in turn.
  const run = <T>(q: RawBuilder<T>, opts?: { merge?: boolean }) => inOwnTx(db, (tx) => q.execute(tx), opts);
  const unbalancedP = run(sql<{ entry_id: bigint; sum: bigint | null }>`
    select e.id as entry_id, sum(p.amount)::bigint as sum
    from ledger_entries e left join ledger_postings p on p.entry_id = e.id
    group by e.id
    having count(p.id) < 2 or sum(p.amount) <> 0
    limit 100`);
  const mismatchedP = run(sql<{ id: bigint; balance: bigint; posted: bigint }>`
    select a.id, a.balance, coalesce(s.total, 0)::bigint as posted
    from ledger_accounts a
    left join (select account_id, sum(amount) as total from ledger_postings group by account_id) s on s.account_id = a.id
    where a.balance <> coalesce(s.total, 0)
    limit 100`);
  const negativeP = run(sql<{ id: bigint; user_id: bigint; balance: bigint }>`
    select id, user_id, balance from ledger_accounts where user_id is not null and balance < 0 limit 100`);
  const countsP = run(sql<{ entries: bigint; accounts: bigint; total: bigint | null }>`
    select (select count(*) from ledger_entries)::bigint as entries,
           (select count(*) from ledger_accounts)::bigint as accounts,
           (select sum(balance) from ledger_accounts)::bigint as total`);
  const totalsP = inOwnTx(db, (tx) => verifyTotals(tx));
  // Per stake, not only per user (verifyTotals): two stakes of one user wrong by opposite amounts
  // cancel out in the user's sum. Each ROI posting names its stake (migration 0180), so a stake's
  // credits are counted and summed without reading the entries: roi_paid must equal the sum, and
  // the number of credits the days from its start to its last ROI day (one credit a day: a day
  // credited twice, or skipped, shows). A full join also finds ROI posted for a stake that is not there.
  // A stake earns a credit a day only when a day's ROI is at least one micro-unit:
  // div(amount × rate × 10^6, 10^8) > 0, i.e. amount × rate ≥ 100 (both non-negative).
  // One merge of two ordered reads (the postings by stake from ledger_postings_stake_idx, the stakes
  // by id), nothing hashed: at 1,000,000 stakes hashing them took twice as long (migration 0213).
  const stakesP = run(
    sql<{ stake_id: string; user_id: bigint | null; paid: bigint; posted: bigint; credits: number; days: number }>`
    select coalesce(s.id, c.stake_id)::text as stake_id, s.user_id,
      coalesce(s.roi_paid, 0)::bigint as paid, coalesce(c.posted, 0)::bigint as posted, coalesce(c.credits, 0)::int as credits,
      (case when s.amount * s.daily_rate >= 100 then coalesce(s.last_roi_date - s.start_date, 0) else 0 end)::int as days
    from stakes s
    full join (select p.stake_id, count(*) as credits, sum(p.amount)::bigint as posted from ledger_postings p where p.stake_id is not null group by p.stake_id) c
      on c.stake_id = s.id
    where coalesce(s.roi_paid, 0) <> coalesce(c.posted, 0)
      or coalesce(c.credits, 0) <> (case when s.amount * s.daily_rate >= 100 then coalesce(s.last_roi_date - s.start_date, 0) else 0 end)
    order by s.user_id nulls last, coalesce(s.id, c.stake_id)
    limit 100`,
    { merge: true },
  );
  const [unbalanced, mismatched, negative, counts, totals, stakes] = await Promise.all([unbalancedP, mismatchedP, negativeP, countsP, totalsP, stakesP]);
  const c = counts.rows[0]!;
  const total = BigInt(c.total ?? 0n);
  const report: VerifyReport = {
    ok: false,
    entries: Number(c.entries),
    accounts: Number(c.accounts),
    unbalancedEntries: unbalanced.rows.map((r) => ({ entryId: String(r.entry_id), sum: String(r.sum ?? 0n) })),
    mismatchedAccounts: mismatched.rows.map((r) => ({ accountId: String(r.id), cached: String(r.balance), posted: String(r.posted) })),
    negativeUserAccounts: negative.rows.map((r) => ({ accountId: String(r.id), userId: String(r.user_id), balance: String(r.balance) })),
    mismatchedTotals: totals,
    mismatchedStakes: stakes.rows.map((r) => ({
      stakeId: r.stake_id,
      userId: r.user_id === null ? '' : String(r.user_id),
      paid: String(r.paid),
      posted: String(r.posted),
      ...(r.credits !== r.days ? { credits: r.credits, days: r.days } : {}),
    })),
    totalOfAllBalances: String(total),
  };
  report.ok =
    !report.unbalancedEntries.length &&
    !report.mismatchedAccounts.length &&
    !report.negativeUserAccounts.length &&
    !totals.length &&
    !report.mismatchedStakes.length &&
    total === 0n;
  return report;
}

/**
 * A user with no money history is being deleted (an unverified sign-up): its totals row and its
 * never-posted accounts go with it. Accounts with postings stay, so the ledger keeps its history.
 */
export async function forgetUnusedUser(tx: Executor, userId: bigint): Promise<void> {
  await sql`delete from user_totals where user_id = ${userId}`.execute(tx);
  await sql`delete from ledger_accounts where user_id = ${userId} and not exists (select 1 from ledger_postings p where p.account_id = ledger_accounts.id)`.execute(
    tx,
  );
}

// user_totals and income_records: written only through these (income totals owned by the ledger).
export * from './totals';
export { creditRoiChunk, type RoiChunkResult } from './roi-chunk';
export { roiIncomeByDay, roiIncomePage, type RoiIncomeRow } from './roi-history';
// The ROI credits as a derived table, for the income history's date-range filter (income/service.ts).
export { roiCredits } from './roi-history';
