import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKind } from '../test/app';
import { createUser, fundDeposit } from '../test/factories';
import { hashToken } from '../modules/auth/sessions';
import { getUserInfoOneStatement } from '../modules/users/service';
import { getWallet } from '../modules/wallet/service';
import { connectDb, type DbHandle } from './connect';

describe('the coalesced reads keep one plan per connection', () => {
  let shared: Awaited<ReturnType<typeof createTestDb>>;
  let one: DbHandle;
  beforeAll(async () => {
    shared = await createTestDb();
    // One connection, so every execution below and the look at its prepared statements meet on it
    // (PGlite is one connection already).
    one = testDbKind === 'postgres' ? await connectDb({ databaseUrl: shared.url!, schema: shared.schema!, poolSize: 1 }) : shared;
  });
  afterAll(async () => {
    if (one !== shared) await one.close();
    await shared.close();
  });

  it('the wallet and get-info statements run on a cached generic plan after their first custom plans', async () => {
    const secret = randomBytes(32).toString('hex');
    const u = await createUser(one.db, secret);
    await fundDeposit(one.db, u.id, 12.5);
    const hash = hashToken(secret, u.token);
    for (let i = 0; i < 10; i++) {
      // One at a time: each call is its own execution of the statement, not a shared batch.
      expect((await getWallet(one.db, hash)).deposit_balance).toBe(12.5);
      expect((await getUserInfoOneStatement(one.db, hash)).user_detail.deposit_balance).toBe(12.5);
    }
    const plans = await sql<{ generic_plans: string; custom_plans: string }>`
      select generic_plans::text, custom_plans::text from pg_prepared_statements
      where statement like '%with ordinality as k(token_hash, ord)%'`.execute(one.db);
    // Both are prepared statements (on PGlite too, where an array parameter used to send them
    // through the parse-and-plan-each-time path)...
    expect(plans.rows).toHaveLength(2);
    for (const p of plans.rows) {
      // ...and after PostgreSQL's five custom plans, each reuses the generic one.
      expect(Number(p.custom_plans)).toBeLessThanOrEqual(5);
      expect(Number(p.generic_plans)).toBeGreaterThanOrEqual(5);
    }
  });

  it('an array parameter arrives as the same array, whatever its elements hold', async () => {
    const values = ['plain', 'with "quotes"', 'back\\slash', 'comma, {braces}', '', 'NULL', null, 'ünï'];
    for (let i = 0; i < 2; i++) {
      const r = await sql<{ a: (string | null)[] }>`select ${values}::text[] as a`.execute(one.db);
      expect(r.rows[0]!.a).toEqual(values);
    }
    // (int8[] reads back as text on node-postgres and as bigint on PGlite: compared as text.)
    const ids = await sql<{ a: unknown[] }>`select ${[1n, 9007199254740993n]}::bigint[] as a`.execute(one.db);
    expect(ids.rows[0]!.a.map(String)).toEqual(['1', '9007199254740993']);
  });
});
