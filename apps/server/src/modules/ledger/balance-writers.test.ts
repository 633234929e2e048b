import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/app';
import { repoRoot, sourceFiles } from '../../test/source-files';
import { createUser, fundDeposit } from '../../test/factories';

/**
 * One implementation of the posting rules (issue 31): the SQL function app_post_many is the only
 * code that writes ledger_accounts.balance. ledger.post, the transfer and the ROI chunk all call
 * it. Three checks, so a second balance writer cannot hide: the live functions' bodies, the
 * TypeScript sources, and the database itself (a trigger refuses any other writer at run time).
 */
const POSTING_FUNCTION = 'app_post_many';
/** The transaction-local setting app_post_many sets around its UPDATE to pass the guard. */
const GUARD_FLAG = 'app.ledger_post';

/** SQL that writes a balance: an UPDATE of ledger_accounts setting balance, or an INSERT naming it. */
const SQL_BALANCE_WRITES = [/update\s+ledger_accounts\b[^;]*?\bset\b[^;]*?\bbalance\s*=/is, /insert\s+into\s+ledger_accounts\s*\([^)]*\bbalance\b/is];
/** The same through Kysely's builder: any update of the accounts, any insert that sets a balance. */
const BUILDER_BALANCE_WRITES = [/updateTable\(\s*['"]ledger_accounts\b/, /insertInto\(\s*['"]ledger_accounts['"]\s*\)[\s\S]{0,200}?\bbalance\s*:/];

describe('one balance writer', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());

  it(`no live SQL function but ${POSTING_FUNCTION} writes a balance`, async () => {
    const fns = await sql<{ name: string; src: string }>`
      select p.proname as name, p.prosrc as src from pg_proc p where p.pronamespace = current_schema()::regnamespace`.execute(h.db);
    expect(fns.rows.length).toBeGreaterThan(10);
    const writers = fns.rows.filter((f) => SQL_BALANCE_WRITES.some((re) => re.test(f.src))).map((f) => f.name);
    expect(writers).toEqual([POSTING_FUNCTION]);
    // The guard's flag is set by the posting function alone (and read by the guard).
    const flaggers = fns.rows
      .filter((f) => f.src.includes(GUARD_FLAG))
      .map((f) => f.name)
      .sort();
    expect(flaggers).toEqual(['app_balance_guard_update', POSTING_FUNCTION]);
  });

  it('no TypeScript source writes a balance (tests corrupt one on purpose only through src/test/ledger-repair.ts)', () => {
    // Migrations are history (the functions they once created are checked live above); the
    // benchmarks' bare-SQL baseline writes balances by design, in its own throw-away schema.
    const files = [
      ...sourceFiles(path.join(repoRoot, 'apps/server/src')),
      ...sourceFiles(path.join(repoRoot, 'packages')),
      ...sourceFiles(path.join(repoRoot, 'scripts')),
    ].filter((f) => !f.includes(`${path.sep}db${path.sep}migrations${path.sep}`) && !f.endsWith('balance-writers.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((f) => !f.endsWith(path.join('test', 'ledger-repair.ts')))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        return [...SQL_BALANCE_WRITES, ...BUILDER_BALANCE_WRITES].some((re) => re.test(text)) || text.includes(GUARD_FLAG);
      })
      .map((f) => path.relative(repoRoot, f));
    expect(offenders).toEqual([]);
  });

  it(`the database refuses a balance written by anything but ${POSTING_FUNCTION}`, async () => {
    const u = await createUser(h.db, 'x'.repeat(64));
    await fundDeposit(h.db, u.id, 10);
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'written',
        (err: { code?: string }) => err.code,
      );
    expect(await code(sql`update ledger_accounts set balance = balance + 1 where user_id = ${u.id}`.execute(h.db))).toBe('UL003');
    expect(await code(sql`insert into ledger_accounts (user_id, kind, balance) values (${u.id}, 'income', 5)`.execute(h.db))).toBe('UL003');
    // Nor from inside another function: only app_post_many's own UPDATE is flagged.
    await sql`create function balance_writer_probe(p_user bigint) returns void language plpgsql as $$
      begin update ledger_accounts set balance = balance + 1 where user_id = p_user; end $$`.execute(h.db);
    try {
      expect(await code(sql`select balance_writer_probe(${u.id})`.execute(h.db))).toBe('UL003');
    } finally {
      await sql`drop function balance_writer_probe(bigint)`.execute(h.db);
    }
    const balance = await sql<{ b: bigint }>`select balance as b from ledger_accounts where user_id = ${u.id} and kind = 'deposit'`.execute(h.db);
    expect(BigInt(balance.rows[0]!.b)).toBe(10_000_000n);
  });
});
