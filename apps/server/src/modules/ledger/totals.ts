import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/types';
import '../income/table';
import './table';

/**
 * The one owner of `user_totals` and `income_records` (issue 13): staking, ROI, rewards, deposits
 * and withdrawals change a user's running totals and income history only through these
 * functions (and the ROI chunk function, ledger/roi-chunk.ts), always in the transaction of the
 * ledger entry that earned them; `verify()` checks the income totals against both.
 */
export type TotalsField = 'total_deposited' | 'total_staked' | 'total_withdrawn' | 'roi_income' | 'referral_income' | 'reward_income';

/** Adds to a user's money-movement totals (deposited, staked, withdrawn) in the entry's transaction. Income goes through recordIncome. */
export async function bumpTotals(
  tx: Tx,
  userId: bigint,
  deltas: Partial<Record<'total_deposited' | 'total_staked' | 'total_withdrawn', bigint>>,
): Promise<void> {
  await addTotals(tx, userId, deltas);
}

/**
 * Adds to one money-movement total of many users in one statement (a batch of deposit credits):
 * the deltas of a user are summed first, as one row may be written once per statement.
 */
export async function bumpTotalsMany(
  tx: Tx,
  field: 'total_deposited' | 'total_staked' | 'total_withdrawn',
  deltas: { userId: bigint; amount: bigint }[],
): Promise<void> {
  const sums = new Map<bigint, bigint>();
  for (const d of deltas) if (d.amount !== 0n) sums.set(d.userId, (sums.get(d.userId) ?? 0n) + d.amount);
  if (!sums.size) return;
  const users = [...sums.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await sql`
    insert into user_totals (user_id, ${sql.ref(field)})
    select x.u, x.d from unnest(${users.map(String)}::bigint[], ${users.map((u) => sums.get(u)!.toString())}::bigint[]) x(u, d)
    on conflict (user_id) do update set ${sql.ref(field)} = user_totals.${sql.ref(field)} + excluded.${sql.ref(field)}, updated_at = now()`.execute(tx);
}

async function addTotals(tx: Tx, userId: bigint, deltas: Partial<Record<TotalsField, bigint>>): Promise<void> {
  const fields = Object.entries(deltas).filter(([, v]) => v !== undefined && v !== 0n) as [TotalsField, bigint][];
  if (!fields.length) return;
  const insert = Object.fromEntries(fields) as Partial<Record<TotalsField, bigint>>;
  await tx
    .insertInto('user_totals')
    .values({ user_id: userId, ...insert })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => {
        const set: Record<string, unknown> = { updated_at: sql`now()` };
        for (const [f, v] of fields) set[f] = eb(eb.ref(`user_totals.${f}`), '+', v);
        return set;
      }),
    )
    .execute();
}

/** Income record types: 1 ROI, 2 direct referral, 3 reward level. */
export type IncomeType = 1 | 2 | 3;
const INCOME_FIELD = { 1: 'roi_income', 2: 'referral_income', 3: 'reward_income' } as const;

export interface IncomeInput {
  userId: bigint;
  type: IncomeType;
  amount: bigint;
  note: string;
  sourceId: string | null;
  forDate: string | null;
  /** the key of the ledger entry that paid it */
  key: string;
}

/**
 * Records income the caller has just posted to the user's income account (call it only when the
 * entry was created): the income history row and the matching running total, together.
 */
export async function recordIncome(tx: Tx, income: IncomeInput): Promise<void> {
  await tx
    .insertInto('income_records')
    .values({
      user_id: income.userId,
      type: income.type,
      amount: income.amount,
      note: income.note,
      source_id: income.sourceId,
      for_date: income.forDate,
      idempotency_key: income.key,
    })
    .execute();
  await addTotals(tx, income.userId, { [INCOME_FIELD[income.type]]: income.amount });
}

export interface UserTotals {
  total_deposited: bigint;
  total_staked: bigint;
  total_withdrawn: bigint;
  roi_income: bigint;
  referral_income: bigint;
  reward_income: bigint;
}
export async function getTotals(db: Executor, userId: bigint): Promise<UserTotals> {
  const row = await db
    .selectFrom('user_totals')
    .select(['total_deposited', 'total_staked', 'total_withdrawn', 'roi_income', 'referral_income', 'reward_income'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    total_deposited: BigInt(row?.total_deposited ?? 0n),
    total_staked: BigInt(row?.total_staked ?? 0n),
    total_withdrawn: BigInt(row?.total_withdrawn ?? 0n),
    roi_income: BigInt(row?.roi_income ?? 0n),
    referral_income: BigInt(row?.referral_income ?? 0n),
    reward_income: BigInt(row?.reward_income ?? 0n),
  };
}

export interface MismatchedTotal {
  userId: string;
  field: 'roi_income' | 'referral_income' | 'reward_income';
  total: string;
  records: string;
  posted: string;
}

/**
 * Each user's income totals against the sum of their income records of that type and the sum of
 * the postings to their income account by entries of that kind (roi, referral, reward). ROI has no
 * income records since migration 0137 (its history is its entries), so for ROI the "records" side
 * is what the user's stakes say they were paid (stakes.roi_paid), written by the same chunk but
 * kept apart from the ledger: a credit the stakes and the postings disagree on shows up here.
 * A stray ROI income record is counted on that side too, so it is reported as well.
 */
export async function verifyTotals(db: Executor): Promise<MismatchedTotal[]> {
  // One pass, one aggregate: every source contributes rows (user, type, total, records, posted)
  // and the sums per user and type are compared. No joins between the sources, so the plan stays
  // linear whatever the statistics say (a join of three aggregates went quadratic at 1M entries).
  const rows = await sql<{ user_id: bigint; field: MismatchedTotal['field']; total: bigint; records: bigint; posted: bigint }>`
    select x.user_id, (array['roi_income', 'referral_income', 'reward_income'])[x.type] as field,
      sum(x.total)::bigint as total, sum(x.records)::bigint as records, sum(x.posted)::bigint as posted
    from (
      select t.user_id, v.type, v.amount as total, 0::bigint as records, 0::bigint as posted
      from user_totals t cross join lateral (values (1, t.roi_income), (2, t.referral_income), (3, t.reward_income)) v(type, amount)
      where v.amount <> 0
      union all
      select r.user_id, r.type::int, 0, r.amount, 0 from income_records r
      union all
      -- ROI credits have no income record (migration 0137): each stake's roi_paid stands in for them.
      select s.user_id, 1, 0, s.roi_paid, 0 from stakes s where s.roi_paid <> 0
      union all
      select e.user_id, case e.kind when 'roi' then 1 when 'referral' then 2 else 3 end, 0, 0, p.amount
      from ledger_entries e
      join ledger_postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id
      where e.kind in ('roi', 'referral', 'reward') and a.user_id = e.user_id and a.kind = 'income'
    ) x
    group by x.user_id, x.type
    having sum(x.total) <> sum(x.records) or sum(x.total) <> sum(x.posted)
    order by x.user_id, x.type
    limit 100`.execute(db);
  return rows.rows.map((r) => ({ userId: String(r.user_id), field: r.field, total: String(r.total), records: String(r.records), posted: String(r.posted) }));
}
