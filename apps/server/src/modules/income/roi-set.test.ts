import { percentOf } from '@app/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/app';
import { verifyLedgerAfterEach } from '../../test/ledger-check';
import { txRetries } from '../../db/tx';
import { roiCredits } from '../../test/roi-credits';
import * as ledger from '../ledger/service';
import { addDays, runRoi } from './roi';

/**
 * The set-based ROI (app_roi_chunk_part, migrations 0110 and 0132) against the rules it replaced: each credit
 * exactly as @app/core percentOf computes it, the last one trimmed to the cap; and a chunk that
 * fails mid-way and is retried credits every stake-day exactly once, skipping none.
 */
describe('set-based ROI', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  const ctx = () => ({ db: h.db, dbKind: h.kind });
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());
  verifyLedgerAfterEach(() => h.db);

  let userSeq = 0;
  async function users(n: number, prefix: string): Promise<bigint[]> {
    const from = userSeq + 1;
    userSeq += n;
    const rows = await sql<{ id: bigint }>`
      insert into users (name, email, username, status, email_verified_at)
      select 'Set ' || g, ${prefix} || g || '@example.test', ${prefix.toUpperCase()} || lpad(g::text, 7, '0'), 'active', now()
      from generate_series(${from}::int, ${userSeq}::int) g returning id`.execute(h.db);
    return rows.rows.map((r) => BigInt(r.id));
  }

  /** What the old per-stake JS loop credited: percentOf per day, the last credit trimmed to the cap. */
  function expected(amount: bigint, rate: string, capPct: string, start: string, date: string): { day: string; credit: bigint }[] {
    const perDay = percentOf(amount, rate);
    const cap = percentOf(amount, capPct);
    const out: { day: string; credit: bigint }[] = [];
    let paid = 0n;
    for (let day = addDays(start, 1); day <= date && paid < cap && perDay > 0n; day = addDays(day, 1)) {
      const credit = perDay < cap - paid ? perDay : cap - paid;
      out.push({ day, credit });
      paid += credit;
    }
    return out;
  }

  it('credits each stake-day exactly as percentOf, over awkward rates, amounts and caps, trimming the last to the cap', async () => {
    const rates = ['0.000001', '0.333333', '1.999999', '7.5', '0.5', '12.345678', '99.999999', '0'];
    const amounts = [1n, 3n, 7n, 999_999n, 1_000_001n, 123_456_789n, 100_000_000n, 9_007_199_254_740_993n, 999_999_999_999_999n];
    const caps = ['200', '0.000001', '150.5', '1.000001', '13.333333'];
    const cases: { amount: bigint; rate: string; cap: string }[] = [];
    for (const rate of rates) for (const amount of amounts) for (const cap of caps) cases.push({ amount, rate, cap });
    const ids = await users(cases.length, 'pct');
    const start = '2022-05-01';
    const date = '2022-05-09';
    const stakeIds: bigint[] = [];
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      const row = await sql<{ id: bigint }>`
        insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
        values (${ids[i]!}, ${c.amount}, ${c.rate}::numeric, ${c.cap}::numeric, ${start}) returning id`.execute(h.db);
      stakeIds.push(BigInt(row.rows[0]!.id));
    }
    // Small chunks, so chunk edges fall inside the set too.
    const r = await runRoi(ctx(), date, { chunk: 97 });
    let credits = 0;
    let total = 0n;
    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      const want = expected(c.amount, c.rate, c.cap, start, date);
      credits += want.length;
      const got = (
        await sql<{ for_date: string; amount: bigint }>`
          select r.for_date, r.amount from ${roiCredits} r where r.stake_id = ${String(stakeIds[i]!)} order by r.for_date`.execute(h.db)
      ).rows;
      const label = `${c.amount} at ${c.rate}% capped at ${c.cap}%`;
      expect(
        got.map((g) => ({ day: g.for_date, credit: BigInt(g.amount) })),
        label,
      ).toEqual(want);
      // The user's ROI history (one stake each) words each credit with the stake's rate and day.
      const listed = await ledger.roiIncomePage(h.db, ids[i]!, 1, 10_000);
      expect(listed.total, label).toBe(want.length);
      expect(listed.rows.map((g) => g.note).sort(), label).toEqual(want.map((w) => `Daily ROI ${c.rate}% on stake #${stakeIds[i]} for ${w.day}`).sort());
      const paid = want.reduce((s, w) => s + w.credit, 0n);
      total += paid;
      const stake = await h.db.selectFrom('stakes').select(['roi_paid', 'status', 'last_roi_date']).where('id', '=', stakeIds[i]!).executeTakeFirstOrThrow();
      const cap = percentOf(c.amount, c.cap);
      const perDay = percentOf(c.amount, c.rate);
      expect(stake, label).toEqual({
        roi_paid: paid,
        status: paid >= cap ? 'completed' : 'active',
        last_roi_date: perDay === 0n ? date : (want.at(-1)?.day ?? start),
      });
    }
    expect(r.credits).toBe(credits);
    expect(r.total).toBe(total);
    expect((await runRoi(ctx(), date, { chunk: 97 })).credits).toBe(0);
    await sql`update stakes set status = 'completed' where status = 'active'`.execute(h.db);
  });

  it('a chunk that fails mid-way (deadlock injected by a trigger) is retried from where it started: each stake-day once, none skipped', async () => {
    const ids = await users(10, 'rty');
    for (const id of ids)
      await sql`insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date) values (${id}, 100000000, 0.5, 200, '2023-02-01')`.execute(h.db);
    // The 13th posting written fails its statement once with a deadlock: chunk 1 (3 stakes × 2
    // days = 6 entries, 12 postings) commits, chunk 2 fails after its entries, postings and balance
    // moves are written in the same statement (row triggers fire at its end), and is rolled back
    // whole. A sequence is not rolled back, so the retry passes.
    await sql`create sequence roi_fail_seq`.execute(h.db);
    await sql`
      create function roi_fail_once() returns trigger language plpgsql as $$
      begin
        if nextval('roi_fail_seq') = 13 then raise exception 'injected deadlock' using errcode = '40P01'; end if;
        return new;
      end $$`.execute(h.db);
    await sql`create trigger roi_fail_once after insert on ledger_postings for each row execute function roi_fail_once()`.execute(h.db);
    const retriesBefore = txRetries.count;
    try {
      const r = await runRoi(ctx(), '2023-02-03', { chunk: 3 });
      expect(txRetries.count - retriesBefore).toBe(1);
      expect(r.credits).toBe(20);
      expect(r.total).toBe(20n * 500_000n);
    } finally {
      await sql`drop trigger roi_fail_once on ledger_postings`.execute(h.db);
      await sql`drop function roi_fail_once()`.execute(h.db);
      await sql`drop sequence roi_fail_seq`.execute(h.db);
    }
    const per = await sql<{ stake: string; entries: bigint; keys: bigint; posted: bigint; records: bigint; paid: bigint }>`
      select s.id::text as stake,
        (select count(*) from ledger_entries e where e.idempotency_key like 'roi:' || s.id || ':%')::bigint as entries,
        (select count(distinct e.idempotency_key) from ledger_entries e where e.idempotency_key like 'roi:' || s.id || ':%')::bigint as keys,
        (select coalesce(sum(p.amount), 0) from ledger_entries e join ledger_postings p on p.entry_id = e.id
          where e.idempotency_key like 'roi:' || s.id || ':%' and p.amount > 0)::bigint as posted,
        (select coalesce(sum(r.amount), 0) from ${roiCredits} r where r.stake_id = s.id::text)::bigint as records,
        s.roi_paid as paid
      from stakes s where s.user_id = any(${ids}::bigint[]) order by s.id`.execute(h.db);
    expect(per.rows).toHaveLength(10);
    for (const { stake, ...row } of per.rows)
      expect(row, `stake ${stake}`).toEqual({ entries: 2n, keys: 2n, posted: 1_000_000n, records: 1_000_000n, paid: 1_000_000n });
    const totals = await sql<{ total: bigint }>`select sum(roi_income)::bigint as total from user_totals where user_id = any(${ids}::bigint[])`.execute(h.db);
    expect(totals.rows[0]!.total).toBe(10_000_000n);
    await sql`update stakes set status = 'completed' where status = 'active'`.execute(h.db);
  });

  it('writes no income record for a credit, and ledger:verify flags a stray ROI income record beside the ledger (migration 0137)', async () => {
    const [id] = await users(1, 'dup');
    const stake = await sql<{ id: bigint }>`
      insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date) values (${id!}, 100000000, 0.5, 200, '2024-03-01') returning id`.execute(
      h.db,
    );
    const stakeId = BigInt(stake.rows[0]!.id);
    expect((await runRoi(ctx(), '2024-03-02')).credits).toBe(1);
    expect(await h.db.selectFrom('income_records').select('id').where('user_id', '=', id!).execute()).toEqual([]);
    expect((await ledger.roiIncomePage(h.db, id!, 1, 10)).rows.map((r) => [r.amount, r.note])).toEqual([
      [500_000n, `Daily ROI 0.5% on stake #${stakeId} for 2024-03-02`],
    ]);
    // A type-1 record is history the ledger does not hold: the user's ROI records no longer equal
    // their ROI total.
    await sql`insert into income_records (user_id, type, amount, note, source_id, for_date, idempotency_key)
      values (${id!}, 1, 500000, 'stray', ${String(stakeId)}, '2024-03-03', 'stray:roi')`.execute(h.db);
    try {
      expect((await ledger.verify(h.db)).mismatchedTotals).toEqual([
        { userId: String(id!), field: 'roi_income', total: '500000', records: '1000000', posted: '500000' },
      ]);
    } finally {
      await sql`delete from income_records where idempotency_key = 'stray:roi'`.execute(h.db);
    }
    await sql`update stakes set status = 'completed' where status = 'active'`.execute(h.db);
  });
});
