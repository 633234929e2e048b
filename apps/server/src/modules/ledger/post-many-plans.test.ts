import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/app';
import { createUser, fundDeposit } from '../../test/factories';

/**
 * A small call of app_post_many (a transfer) reaches its users and accounts by index, whatever the
 * tables' size (migration 0214). Its plans are made once, costed for ten legs; against a thousand
 * users and accounts that costed a sequential scan below ten index probes, and every transfer read
 * both tables whole. The engine's own count of the transaction's scans says which it did.
 */
const SECRET = 'x'.repeat(64);

describe('app_post_many: a small call by index', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    h = await createTestDb();
    // A thousand users, each with an account, as the transfer benchmark has them.
    await sql`
      insert into users (name, email, username, status, is_admin, email_verified_at)
      select 'Plan ' || g, 'plan' || g || '@example.test', 'P' || lpad(g::text, 8, '0'), 'inactive', false, now()
      from generate_series(1, 1000) g`.execute(h.db);
    // Without the reference trigger: a trigger's query on its transition table is planned once per
    // session, for the rows of its first statement, and this one statement of a thousand rows would
    // leave it a plan that scans the users for every later insert (a rule of its own, not this one's).
    await sql`alter table ledger_accounts disable trigger ledger_accounts_user_ref`.execute(h.db);
    await sql`insert into ledger_accounts (user_id, kind) select u.id, 'deposit' from users u`.execute(h.db);
    await sql`alter table ledger_accounts enable trigger ledger_accounts_user_ref`.execute(h.db);
  });
  afterAll(async () => h.close());

  /**
   * The backend's count of sequential scans of the users and the accounts. The "xact" view counts
   * since the backend last sent its statistics, which can be before the transaction began (a
   * statement of the setup a moment earlier), so each test takes a difference.
   */
  const seqScans = async (tx: typeof h.db) =>
    (
      await sql<{ relname: string; seq_scan: string }>`
        select relname, seq_scan::text from pg_stat_xact_user_tables
        where schemaname = current_schema() and relname in ('users', 'ledger_accounts') order by relname`.execute(tx)
    ).rows;

  // First in the file: the plan it is about is made by the first insert into user_totals the
  // session checks, so nothing before it may have inserted there.
  it("the users' reference check finds one row's user by key after a large insert planned it first (migration 0215)", async () => {
    const late = await createUser(h.db, SECRET);
    const scans = await h.db.transaction().execute(async (tx) => {
      await sql`insert into user_totals (user_id) select u.id from users u where u.id <> ${late.id}`.execute(tx);
      const before = await seqScans(tx);
      await sql`insert into user_totals (user_id) values (${late.id})`.execute(tx);
      const after = await seqScans(tx);
      return after.map((row, i) => ({ relname: row.relname, seq_scan: String(Number(row.seq_scan) - Number(before[i]!.seq_scan)) }));
    });
    expect(scans).toEqual([
      { relname: 'ledger_accounts', seq_scan: '0' },
      { relname: 'users', seq_scan: '0' },
    ]);
    // And it still refuses what the foreign key refused.
    const refused = await h.db
      .transaction()
      .execute((tx) => sql`insert into user_totals (user_id) values (${-1})`.execute(tx))
      .then(
        () => undefined,
        (err: { code?: string }) => err.code,
      );
    expect(refused).toBe('23503');
  });

  it('a transfer scans neither the users nor the accounts, and the caller keeps its own setting', async () => {
    const sender = await createUser(h.db, SECRET);
    const receiver = await createUser(h.db, SECRET);
    await fundDeposit(h.db, sender.id, 10);
    await fundDeposit(h.db, receiver.id, 1);
    const transfer = (tx: typeof h.db) =>
      sql`select * from app_transfer(${sender.id}::bigint, ${receiver.username}::text, 'deposit', 1000000::bigint)`.execute(tx);
    const scans = await h.db.transaction().execute(async (tx) => {
      const before = await seqScans(tx);
      for (let i = 0; i < 3; i++) await transfer(tx);
      const after = await seqScans(tx);
      const setting = await sql<{ v: string }>`select current_setting('enable_seqscan') as v`.execute(tx);
      return {
        counts: after.map((row, i) => ({ relname: row.relname, seq_scan: String(Number(row.seq_scan) - Number(before[i]!.seq_scan)) })),
        setting: setting.rows[0]!.v,
      };
    });
    expect(scans.counts).toEqual([
      { relname: 'ledger_accounts', seq_scan: '0' },
      { relname: 'users', seq_scan: '0' },
    ]);
    expect(scans.setting).toBe('on');
    const balance = await sql<{ balance: string }>`
      select balance::text from ledger_accounts where user_id = ${receiver.id} and kind = 'deposit'`.execute(h.db);
    expect(balance.rows[0]!.balance).toBe('4000000');
  });
});
