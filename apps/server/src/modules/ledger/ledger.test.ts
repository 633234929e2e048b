import { usd } from '@app/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, testDbKind } from '../../test/app';
import { createUser, fundDeposit } from '../../test/factories';
import { tamperBalance } from '../../test/ledger-repair';
import * as ledger from './service';
import type { DbHandle } from '../../db/connect';

describe('ledger', () => {
  let h: DbHandle;
  const secret = 'x'.repeat(64);
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());
  /** Posts one entry in a transaction of its own, as a service call does. */
  const postAlone = (key: string, kind: string, postings: ledger.EntryInput['postings']) =>
    h.db.transaction().execute((tx) => ledger.post(tx, { key, kind, postings }));

  it('moves money between accounts with balanced postings and caches balances', async () => {
    const a = await createUser(h.db, secret);
    const b = await createUser(h.db, secret);
    await fundDeposit(h.db, a.id, 100);
    await postAlone(`t:${a.id}:1`, 'transfer', [
      { account: ledger.userAccount(a.id, 'deposit'), amount: -usd('12.345678') },
      { account: ledger.userAccount(b.id, 'deposit'), amount: usd('12.345678') },
    ]);
    expect((await ledger.getBalances(h.db, a.id)).deposit).toBe(87_654_322n);
    expect((await ledger.getBalances(h.db, b.id)).deposit).toBe(12_345_678n);
    expect((await ledger.verify(h.db)).ok).toBe(true);
  });

  it('writes an entry once for the same idempotency key', async () => {
    const a = await createUser(h.db, secret);
    await fundDeposit(h.db, a.id, 10, `fund-once:${a.id}`);
    await fundDeposit(h.db, a.id, 10, `fund-once:${a.id}`);
    expect((await ledger.getBalances(h.db, a.id)).deposit).toBe(usd(10));
  });

  it('refuses a debit that would take a user below zero and writes nothing', async () => {
    const a = await createUser(h.db, secret);
    const b = await createUser(h.db, secret);
    await fundDeposit(h.db, a.id, 5);
    const before = await ledger.verify(h.db);
    await expect(
      postAlone(`over:${a.id}`, 'transfer', [
        { account: ledger.userAccount(a.id, 'deposit'), amount: -usd(6) },
        { account: ledger.userAccount(b.id, 'deposit'), amount: usd(6) },
      ]),
    ).rejects.toThrow('Insufficient balance');
    expect((await ledger.getBalances(h.db, a.id)).deposit).toBe(usd(5));
    expect((await ledger.getBalances(h.db, b.id)).deposit).toBe(0n);
    const after = await ledger.verify(h.db);
    expect(after.entries).toBe(before.entries);
  });

  it('refuses a debit from an account that does not exist yet', async () => {
    const a = await createUser(h.db, secret);
    const b = await createUser(h.db, secret);
    await expect(
      postAlone(`new-neg:${a.id}`, 'transfer', [
        { account: ledger.userAccount(a.id, 'income'), amount: -1n },
        { account: ledger.userAccount(b.id, 'income'), amount: 1n },
      ]),
    ).rejects.toThrow('Insufficient balance');
  });

  it('rejects an unbalanced entry before writing', async () => {
    const a = await createUser(h.db, secret);
    await expect(
      postAlone(`unbalanced:${a.id}`, 'x', [
        { account: ledger.userAccount(a.id, 'deposit'), amount: 5n },
        { account: ledger.systemAccount(ledger.SYSTEM.roiExpense), amount: -4n },
      ]),
    ).rejects.toThrow(/does not balance/);
  });

  it('verify finds a cached balance that was tampered with, and a negative user balance is impossible', async () => {
    const a = await createUser(h.db, secret);
    await fundDeposit(h.db, a.id, 1);
    await tamperBalance(h.db, a.id, 1, 'deposit');
    const report = await ledger.verify(h.db);
    expect(report.ok).toBe(false);
    expect(report.mismatchedAccounts.length).toBe(1);
    await tamperBalance(h.db, a.id, -1, 'deposit');
    expect((await ledger.verify(h.db)).ok).toBe(true);
    // Even a writer past the guard cannot make a user balance negative: the CHECK constraint.
    await expect(tamperBalance(h.db, a.id, -2_000_000n, 'deposit')).rejects.toMatchObject({ code: '23514' });
  });

  it('posts small and large calls with the plans chosen for their size, and gives the caller its plan setting back (migration 0182)', async () => {
    const users = await Promise.all(Array.from({ length: 40 }, () => createUser(h.db, secret)));
    await fundDeposit(h.db, users[0]!.id, 100);
    const seen = await h.db.transaction().execute(async (tx) => {
      await sql`set local plan_cache_mode = 'auto'`.execute(tx);
      const settings: string[] = [];
      // 2 legs (generic plans), then 40 legs (custom plans), then one already posted (the early return).
      for (const [key, n] of [
        [`plans:small:${users[0]!.id}`, 1],
        [`plans:large:${users[0]!.id}`, 39],
        [`plans:small:${users[0]!.id}`, 1],
      ] as const) {
        await ledger.post(tx, {
          key,
          kind: 'transfer',
          postings: [
            { account: ledger.userAccount(users[0]!.id, 'deposit'), amount: -usd(n) },
            ...users.slice(1, n + 1).map((u) => ({ account: ledger.userAccount(u.id, 'deposit'), amount: usd(1) })),
          ],
        });
        settings.push((await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(tx)).rows[0]!.mode);
      }
      return settings;
    });
    expect(seen).toEqual(['auto', 'auto', 'auto']);
    expect((await ledger.getBalances(h.db, users[0]!.id)).deposit).toBe(usd(60));
    expect((await ledger.getBalances(h.db, users[39]!.id)).deposit).toBe(usd(1));
    expect((await ledger.verify(h.db)).ok).toBe(true);
  });

  it.runIf(testDbKind === 'postgres')('never overdraws under 60 racing debits (PostgreSQL)', async () => {
    const a = await createUser(h.db, secret);
    const b = await createUser(h.db, secret);
    await fundDeposit(h.db, a.id, 100);
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        postAlone(`race:${a.id}:${i}`, 'transfer', [
          { account: ledger.userAccount(a.id, 'deposit'), amount: -usd(7) },
          { account: ledger.userAccount(b.id, 'deposit'), amount: usd(7) },
        ]),
      ),
    );
    const okCount = results.filter((r) => r.status === 'fulfilled').length;
    expect(okCount).toBe(14); // 14 × 7 = 98 ≤ 100 < 105
    expect((await ledger.getBalances(h.db, a.id)).deposit).toBe(usd(2));
    expect((await ledger.getBalances(h.db, b.id)).deposit).toBe(usd(98));
    expect((await ledger.verify(h.db)).ok).toBe(true);
  });
});
