import { sql } from 'kysely';
import type { DB, Tx } from '../db/types';

/**
 * Tests that corrupt a balance on purpose (to see ledger:verify catch it) do it here and only
 * here: `app_post_many` is the only balance writer (migration 0180), and a trigger refuses any
 * other. This switches that trigger off for one transaction of the test's own database (ALTER
 * TABLE takes the table's lock until commit), runs `work`, and switches it on again.
 * balance-writers.test.ts lets no other file write a balance.
 */
export async function withoutBalanceGuard<T>(db: DB, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`alter table ledger_accounts disable trigger ledger_accounts_balance_writer`.execute(tx);
    const out = await work(tx);
    await sql`alter table ledger_accounts enable trigger ledger_accounts_balance_writer`.execute(tx);
    return out;
  });
}

/** Moves a user's cached balance (every account, or one kind) by `delta` without a posting. */
export function tamperBalance(db: DB, userId: bigint, delta: bigint | number, kind?: 'deposit' | 'income'): Promise<unknown> {
  return withoutBalanceGuard(db, (tx) =>
    sql`update ledger_accounts set balance = balance + ${delta} where user_id = ${userId} ${kind ? sql`and kind = ${kind}` : sql``}`.execute(tx),
  );
}
