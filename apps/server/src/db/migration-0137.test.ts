import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ledger from '../modules/ledger/service';
import { runRoi } from '../modules/income/roi';
import { createTestDb } from '../test/app';
import { migratorFor } from './migrate';

/**
 * Migration 0137 moves ROI income history onto the ledger: a database whose ROI credits were
 * written with income records (0136 and before) lists the same history after it, with no record
 * left behind, and down() rebuilds the records the old chunk function wrote, to the byte.
 */
describe('migration 0137: ROI income history from the ledger', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());

  const records = async () =>
    (
      await sql<{ user_id: bigint; amount: bigint; note: string; source_id: string; for_date: string; idempotency_key: string; created_at: Date }>`
        select user_id, amount, note, source_id, for_date::text as for_date, idempotency_key, created_at from income_records where type = 1 order by idempotency_key`.execute(
        h.db,
      )
    ).rows;

  it('keeps every credit in the ROI list across up, and down restores the records as they were', async () => {
    const migrator = migratorFor(h.db, h.schema);
    expect((await migrator.migrateTo('0136_auth_decoys')).error).toBeUndefined();
    const users = await sql<{ id: bigint }>`
      insert into users (name, email, username, status, email_verified_at)
      select 'Mig ' || g, 'mig' || g || '@example.test', 'MG' || lpad(g::text, 7, '0'), 'active', now() from generate_series(1, 3) g returning id`.execute(
      h.db,
    );
    const ids = users.rows.map((u) => BigInt(u.id));
    for (const [i, id] of ids.entries())
      await sql`insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
        values (${id}, ${(i + 1) * 100_000_000}, ${i === 2 ? '0.75' : '0.5'}::numeric, 200, '2025-05-01')`.execute(h.db);
    expect((await runRoi({ db: h.db, dbKind: h.kind }, '2025-05-04')).credits).toBe(9);
    const before = await records();
    expect(before).toHaveLength(9);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await records()).toEqual([]);
    for (const id of ids) {
      const mine = before.filter((r) => r.user_id === id);
      const page = await ledger.roiIncomePage(h.db, id, 1, 10);
      expect(page.total).toBe(3);
      expect(page.rows.map((r) => [r.note, r.amount]).sort()).toEqual(mine.map((r) => [r.note, BigInt(r.amount)]).sort());
    }
    expect((await ledger.verify(h.db)).ok).toBe(true);

    expect((await migrator.migrateTo('0136_auth_decoys')).error).toBeUndefined();
    expect(await records()).toEqual(before);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });
});
