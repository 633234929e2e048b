import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/types';
import { AppError } from '../../lib/errors';
import type { AccountRef, UserAccountKind } from './accounts';
import { roiCredits } from './roi-history';
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

const CHECK_VIOLATION = '23514';

function accountSortKey(a: AccountRef): string {
  return 'system' in a ? `0:${a.system}` : `1:${a.userId.toString().padStart(20, '0')}:${a.kind}`;
}

/**
 * Posts one balanced entry. The only code that changes a balance.
 * - Idempotent: a second post with the same key writes nothing and returns created=false.
 * - Accounts are touched in one fixed order (system first, then by user id and kind), so two
 *   entries over the same accounts cannot deadlock.
 * - A debit that would take a user account below zero fails the whole entry with
 *   'Insufficient balance' (conditional update; the CHECK constraint is the last line of defence).
 * Must run inside the caller's transaction so the entry and the business rows commit together.
 */
export async function post(tx: Tx, entry: EntryInput): Promise<PostResult> {
  const postings = entry.postings.filter((p) => p.amount !== 0n);
  if (postings.length < 2) throw new Error(`ledger entry ${entry.key} needs at least two non-zero postings`);
  const sum = postings.reduce((s, p) => s + p.amount, 0n);
  if (sum !== 0n) throw new Error(`ledger entry ${entry.key} does not balance (sum ${sum})`);

  // Merge postings on the same account, then apply them in a stable order.
  const merged = new Map<string, PostingInput>();
  for (const p of postings) {
    const k = accountSortKey(p.account);
    const prev = merged.get(k);
    merged.set(k, { account: p.account, amount: (prev?.amount ?? 0n) + p.amount });
  }
  const ordered = [...merged.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, p]) => p)
    .filter((p) => p.amount !== 0n);

  const fast = ordered.length ? await postOneStatement(tx, entry, ordered) : { entryId: null, accountsMissing: true };
  if (fast.entryId === null && !fast.accountsMissing) return { entryId: null, created: false };
  if (!fast.accountsMissing) return { entryId: fast.entryId, created: true };

  // Slow path, when an account does not exist yet (its first posting): the entry is in (or not,
  // for an empty entry), nothing else was written; account by account, creating as needed.
  let entryId = fast.entryId;
  if (entryId === null) {
    const inserted = await tx
      .insertInto('ledger_entries')
      .values({ idempotency_key: entry.key, kind: entry.kind, user_id: entry.userId ?? null, memo: entry.memo ?? null })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return { entryId: null, created: false };
    entryId = inserted.id;
  }
  const rows: { entry_id: bigint; account_id: bigint; amount: bigint }[] = [];
  for (const p of ordered) {
    const accountId = await applyToAccount(tx, p.account, p.amount);
    rows.push({ entry_id: entryId, account_id: accountId, amount: p.amount });
  }
  await tx.insertInto('ledger_postings').values(rows).execute();
  return { entryId, created: true };
}

/**
 * The whole entry in one round trip: insert the entry (idempotency key), lock its accounts in the
 * given stable order, move each balance with the conditional debit, insert the postings — the
 * same steps, in the same lock order, as the statement-by-statement path. When an account does
 * not exist yet, only the entry is written (accountsMissing) and the caller goes on from there.
 *
 * Why it is safe under READ COMMITTED: the `for update` in `acc` locks the newest version of each
 * row in `ord` order (LockRows sits above the Sort); the update then rechecks `balance + amount
 * >= 0` on that newest version (EvalPlanQual), and the CHECK constraint stays the last line.
 * Fewer updated rows than accounts means a debit failed: the caller's transaction rolls back.
 * The select list is evaluated left to right, so the entry is inserted before any account lock.
 * Foreign keys are checked at the end of a statement, not of a CTE: `owner` takes the entry's
 * key-share lock on its user row up front, where the separate insert used to take it, or a
 * transaction holding that user row (`for update`) and waiting for one of our accounts deadlocks.
 */
async function postOneStatement(tx: Tx, entry: EntryInput, ordered: PostingInput[]): Promise<{ entryId: bigint | null; accountsMissing: boolean }> {
  const values = ordered.map((p, i) => {
    const userId = 'system' in p.account ? null : p.account.userId;
    const kind = 'system' in p.account ? p.account.system : p.account.kind;
    return sql`(${i}::int, ${userId}::bigint, ${kind}::text, ${p.amount}::bigint)`;
  });
  // One indexable condition per account (`is not distinct from` cannot use the unique index).
  const match = ordered.map((p) =>
    'system' in p.account ? sql`(a.user_id is null and a.kind = ${p.account.system})` : sql`(a.user_id = ${p.account.userId} and a.kind = ${p.account.kind})`,
  );
  try {
    const res = await sql<{ entry_id: bigint | null; locked: number; updated: number }>`
      with v(ord, user_id, kind, amount) as (values ${sql.join(values)}),
      owner as (select id from users where id = ${entry.userId ?? null}::bigint for key share),
      e as (
        insert into ledger_entries (idempotency_key, kind, user_id, memo)
        select ${entry.key}, ${entry.kind}, ${entry.userId ?? null}::bigint, ${entry.memo ?? null}::text from (select count(*) from owner) o
        on conflict (idempotency_key) do nothing
        returning id),
      acc as (
        select a.id, v.amount from ledger_accounts a
        join v on a.kind = v.kind and a.user_id is not distinct from v.user_id
        where (${sql.join(match, sql` or `)}) and exists (select 1 from e)
        order by v.ord
        for update of a),
      u as (
        update ledger_accounts a set balance = a.balance + acc.amount
        from acc
        where a.id = acc.id and (select count(*) from acc) = ${ordered.length} and (a.user_id is null or a.balance + acc.amount >= 0)
        returning a.id, acc.amount),
      p as (insert into ledger_postings (entry_id, account_id, amount) select e.id, u.id, u.amount from e, u)
      select (select id from e) as entry_id, (select count(*) from acc)::int as locked, (select count(*) from u)::int as updated`.execute(tx);
    const r = res.rows[0]!;
    if (r.entry_id === null) return { entryId: null, accountsMissing: false };
    if (r.locked !== ordered.length) return { entryId: r.entry_id, accountsMissing: true };
    if (r.updated !== ordered.length) throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance');
    return { entryId: r.entry_id, accountsMissing: false };
  } catch (err) {
    if ((err as { code?: string }).code === CHECK_VIOLATION) throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance');
    throw err;
  }
}

/**
 * Moves an account's balance with a conditional update (a user account never goes below zero),
 * creating the account on first use. The update takes the row lock that serialises racing debits.
 */
async function applyToAccount(tx: Tx, account: AccountRef, amount: bigint): Promise<bigint> {
  const userId = 'system' in account ? null : account.userId;
  const kind = 'system' in account ? account.system : account.kind;
  const update = () =>
    sql<{ id: bigint }>`
      update ledger_accounts set balance = balance + ${amount}
      where user_id is not distinct from ${userId} and kind = ${kind}
        and (user_id is null or balance + ${amount} >= 0)
      returning id`.execute(tx);
  try {
    let res = await update();
    if (!res.rows[0]) {
      const created = await sql<{ id: bigint }>`
        insert into ledger_accounts (user_id, kind) values (${userId}, ${kind})
        on conflict (user_id, kind) do nothing returning id`.execute(tx);
      // The account existed, so the condition failed: not enough money.
      if (!created.rows[0] && userId !== null) throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance');
      res = await update();
    }
    const row = res.rows[0];
    if (!row) throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance');
    return row.id;
  } catch (err) {
    if ((err as { code?: string }).code === CHECK_VIOLATION) throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance');
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

export interface VerifyReport {
  ok: boolean;
  entries: number;
  accounts: number;
  unbalancedEntries: { entryId: string; sum: string }[];
  mismatchedAccounts: { accountId: string; cached: string; posted: string }[];
  negativeUserAccounts: { accountId: string; userId: string; balance: string }[];
  /** users whose roi/referral/reward income total differs from their income records (ROI: stakes' roi_paid) or income postings */
  mismatchedTotals: MismatchedTotal[];
  /** stakes whose roi_paid differs from the ROI their entries (keyed roi:<stake>:<day>) posted */
  mismatchedStakes: { stakeId: string; userId: string; paid: string; posted: string }[];
  totalOfAllBalances: string;
}

/**
 * Proves the ledger: every entry sums to zero and has postings; every cached balance equals the
 * sum of its postings; no user balance is negative; all balances together sum to zero; each
 * user's income totals equal their income records and their income postings (verifyTotals); each
 * stake's roi_paid equals the ROI posted for it.
 */
export async function verify(db: Executor): Promise<VerifyReport> {
  const unbalanced = await sql<{ entry_id: bigint; sum: bigint | null }>`
    select e.id as entry_id, sum(p.amount)::bigint as sum
    from ledger_entries e left join ledger_postings p on p.entry_id = e.id
    group by e.id
    having count(p.id) < 2 or sum(p.amount) <> 0
    limit 100`.execute(db);
  const mismatched = await sql<{ id: bigint; balance: bigint; posted: bigint }>`
    select a.id, a.balance, coalesce(s.total, 0)::bigint as posted
    from ledger_accounts a
    left join (select account_id, sum(amount) as total from ledger_postings group by account_id) s on s.account_id = a.id
    where a.balance <> coalesce(s.total, 0)
    limit 100`.execute(db);
  const negative = await sql<{ id: bigint; user_id: bigint; balance: bigint }>`
    select id, user_id, balance from ledger_accounts where user_id is not null and balance < 0 limit 100`.execute(db);
  const counts = await sql<{ entries: bigint; accounts: bigint; total: bigint | null }>`
    select (select count(*) from ledger_entries)::bigint as entries,
           (select count(*) from ledger_accounts)::bigint as accounts,
           (select sum(balance) from ledger_accounts)::bigint as total`.execute(db);
  const totals = await verifyTotals(db);
  // Per stake, not only per user (verifyTotals): two stakes of one user wrong by opposite amounts
  // cancel out in the user's sum. A full join also finds ROI posted for a stake that is not there.
  const stakes = await sql<{ stake_id: string; user_id: bigint; paid: bigint; posted: bigint }>`
    select coalesce(s.id::text, c.stake_id) as stake_id, coalesce(s.user_id, c.user_id) as user_id,
      coalesce(s.roi_paid, 0)::bigint as paid, coalesce(c.posted, 0)::bigint as posted
    from stakes s
    full join (select r.stake_id, min(r.user_id) as user_id, sum(r.amount) as posted from ${roiCredits} r group by r.stake_id) c
      on c.stake_id = s.id::text
    where coalesce(s.roi_paid, 0) <> coalesce(c.posted, 0)
    order by 2, length(coalesce(s.id::text, c.stake_id)), 1
    limit 100`.execute(db);
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
    mismatchedStakes: stakes.rows.map((r) => ({ stakeId: r.stake_id, userId: String(r.user_id), paid: String(r.paid), posted: String(r.posted) })),
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
