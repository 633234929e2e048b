import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, type DbHandle } from '../../db/connect';
import { createTestApp, createTestDb, testDbKind, type TestApp } from '../../test/app';
import { createUser, fundDeposit } from '../../test/factories';
import * as ledger from './service';

/**
 * The ledger's references (postings → entries and accounts; entries, accounts, income records and
 * totals → users) are checked once per statement by triggers (migration 0130, decision
 * 2026-11-23-ledger-set-references) instead of per-row foreign keys. They must refuse everything
 * the foreign keys refused, with the same error code (23503), and write nothing when they do.
 */
const code = async (p: Promise<unknown>): Promise<string | undefined> => {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('ledger references checked per statement', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const newEntry = async (key: string, userId: bigint | null) =>
    (await sql<{ id: bigint }>`insert into ledger_entries (idempotency_key, kind, user_id) values (${key}, 'test', ${userId}) returning id`.execute(t.db))
      .rows[0]!.id;
  const accountOf = async (userId: bigint) => {
    await fundDeposit(t.db, userId, 1);
    return (await sql<{ id: bigint }>`select id from ledger_accounts where user_id = ${userId} and kind = 'deposit'`.execute(t.db)).rows[0]!.id;
  };
  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(t.db)).rows[0]!.n);

  it('refuses rows that reference a missing user, entry or account, the whole statement at once', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const account = await accountOf(u.id);
    const entry = await newEntry('ref-test:1', u.id);
    const missing = 9_000_000_000n;
    const before = { entries: await count('ledger_entries'), postings: await count('ledger_postings'), income: await count('income_records') };

    expect(
      await code(
        sql`insert into ledger_entries (idempotency_key, kind, user_id) values ('ref-test:2', 'test', ${u.id}), ('ref-test:3', 'test', ${missing})`.execute(
          t.db,
        ),
      ),
    ).toBe('23503');
    expect(
      await code(sql`insert into ledger_postings (entry_id, account_id, amount) values (${entry}, ${account}, 1), (${missing}, ${account}, -1)`.execute(t.db)),
    ).toBe('23503');
    expect(
      await code(sql`insert into ledger_postings (entry_id, account_id, amount) values (${entry}, ${account}, 1), (${entry}, ${missing}, -1)`.execute(t.db)),
    ).toBe('23503');
    expect(
      await code(sql`insert into income_records (user_id, type, amount, note, idempotency_key) values (${missing}, 1, 1, 'x', 'ref-test:ir')`.execute(t.db)),
    ).toBe('23503');
    expect(await code(sql`insert into ledger_accounts (user_id, kind) values (${missing}, 'income')`.execute(t.db))).toBe('23503');
    expect(await code(sql`insert into user_totals (user_id) values (${missing})`.execute(t.db))).toBe('23503');
    // The same with the entry and the account written by the posting's own transaction (the path
    // on which 0135 skips the locking lookup): a missing reference beside them is still refused.
    for (const missingOne of ['entry', 'account'] as const) {
      expect(
        await code(
          t.db.transaction().execute(async (tx) => {
            const own = (
              await sql<{
                id: bigint;
              }>`insert into ledger_entries (idempotency_key, kind, user_id) values ('ref-test:own', 'test', ${u.id}) returning id`.execute(tx)
            ).rows[0]!.id;
            await sql`update ledger_accounts set kind = kind where id = ${account}`.execute(tx);
            const [entryId, accountId] = missingOne === 'entry' ? [missing, account] : [own, missing];
            await sql`insert into ledger_postings (entry_id, account_id, amount) values (${own}, ${account}, 1), (${entryId}, ${accountId}, -1)`.execute(tx);
          }),
        ),
      ).toBe('23503');
    }
    expect({ entries: await count('ledger_entries'), postings: await count('ledger_postings'), income: await count('income_records') }).toEqual(before);

    // The same statements with every reference present go through.
    await sql`insert into ledger_postings (entry_id, account_id, amount) values (${entry}, ${account}, 1), (${entry}, ${account}, -1)`.execute(t.db);
    expect(await count('ledger_postings')).toBe(before.postings + 2);
  });

  it('refuses deleting a user, an entry or an account the ledger still references, and changing a reference', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const account = await accountOf(u.id);
    const entry = (await sql<{ id: bigint }>`select entry_id as id from ledger_postings where account_id = ${account}`.execute(t.db)).rows[0]!.id;
    const other = await createUser(t.db, t.ctx.secret);
    const otherAccount = await accountOf(other.id);

    expect(await code(sql`delete from users where id = ${u.id}`.execute(t.db))).toBe('23503');
    expect(await code(sql`delete from ledger_entries where id = ${entry}`.execute(t.db))).toBe('23503');
    expect(await code(sql`delete from ledger_accounts where id = ${account}`.execute(t.db))).toBe('23503');
    expect(await code(sql`update ledger_postings set account_id = ${otherAccount} where account_id = ${account}`.execute(t.db))).toBe('23503');
    expect(await code(sql`update ledger_entries set user_id = ${other.id} where id = ${entry}`.execute(t.db))).toBe('23503');
    expect(await code(sql`update ledger_accounts set user_id = ${other.id} where id = ${account}`.execute(t.db))).toBe('23503');
    expect((await ledger.verify(t.db)).ok).toBe(true);

    // A user with nothing in the ledger still goes (the unverified clean-up deletes such users).
    const bare = await createUser(t.db, t.ctx.secret);
    await sql`delete from users where id = ${bare.id}`.execute(t.db);
    expect(Number((await sql<{ n: string }>`select count(*) as n from users where id = ${bare.id}`.execute(t.db)).rows[0]!.n)).toBe(0);
  });
});

/**
 * The foreign key's lock, kept: an insert key-share locks the users it references until it
 * commits, so a racing delete of that user waits for it and then fails, instead of leaving an
 * entry whose user is gone.
 */
describe.runIf(testDbKind === 'postgres')('ledger references under concurrency (PostgreSQL)', () => {
  let main: Awaited<ReturnType<typeof createTestDb>>;
  let other: DbHandle;
  beforeAll(async () => {
    main = await createTestDb();
    other = await connectDb({ databaseUrl: main.url, schema: main.schema!, poolSize: 2 });
  });
  afterAll(async () => {
    await other.close();
    await main.close();
  });

  it('a delete of a user racing an uncommitted entry for that user fails once the entry commits', async () => {
    const u = await createUser(main.db, 'x'.repeat(64));
    let deleting: Promise<string | undefined> | undefined;
    await main.db.transaction().execute(async (tx) => {
      await sql`insert into ledger_entries (idempotency_key, kind, user_id) values ('ref-race:1', 'test', ${u.id})`.execute(tx);
      deleting = code(sql`delete from users where id = ${u.id}`.execute(other.db));
      // The delete must be waiting on the entry's lock, not done: look for it among the waiters
      // (from another connection: pg_stat_activity is read once per transaction).
      for (let i = 0; i < 200; i++) {
        const waiting = await sql<{
          n: string;
        }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'delete from users%'`.execute(main.db);
        if (Number(waiting.rows[0]!.n) > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    expect(await deleting).toBe('23503');
    expect(Number((await sql<{ n: string }>`select count(*) as n from users where id = ${u.id}`.execute(main.db)).rows[0]!.n)).toBe(1);
  });

  // The postings' check locks only the entries and accounts another transaction wrote (0135 skips
  // the lookup when there are none): these are such rows, so the lock must still be taken.
  for (const target of ['ledger_entries', 'ledger_accounts'] as const) {
    it(`a delete from ${target} racing an uncommitted posting on a row committed earlier fails once the posting commits`, async () => {
      const u = await createUser(main.db, 'x'.repeat(64));
      const key = `ref-race:${target}:${u.id}`;
      const entry = (
        await sql<{ id: bigint }>`insert into ledger_entries (idempotency_key, kind, user_id) values (${key}, 'test', ${u.id}) returning id`.execute(main.db)
      ).rows[0]!.id;
      const account = (await sql<{ id: bigint }>`insert into ledger_accounts (user_id, kind) values (${u.id}, 'deposit') returning id`.execute(main.db))
        .rows[0]!.id;
      const id = target === 'ledger_entries' ? entry : account;
      let deleting: Promise<string | undefined> | undefined;
      let waited = false;
      await main.db.transaction().execute(async (tx) => {
        await sql`insert into ledger_postings (entry_id, account_id, amount) values (${entry}, ${account}, 1), (${entry}, ${account}, -1)`.execute(tx);
        deleting = code(sql`delete from ${sql.table(target)} where id = ${id}`.execute(other.db));
        for (let i = 0; i < 200 && !waited; i++) {
          const waiting = await sql<{
            n: string;
          }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like ${`delete from "${target}"%`}`.execute(main.db);
          waited = Number(waiting.rows[0]!.n) > 0;
          if (!waited) await new Promise((r) => setTimeout(r, 25));
        }
      });
      expect(waited).toBe(true);
      expect(await deleting).toBe('23503');
      expect(Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(target)} where id = ${id}`.execute(main.db)).rows[0]!.n)).toBe(1);
    });
  }
});
