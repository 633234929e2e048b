import { usd } from '@app/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../cli/commands';
import type { AppContext } from '../../context';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser, fundDeposit } from '../../test/factories';
import { runRoi } from '../income/roi';
import { createStake } from '../staking/service';
import * as ledger from './service';

/**
 * Income totals are owned by the ledger module (totals.ts) and proved by ledger:verify: each
 * user's roi/referral/reward income total equals their income records (for ROI: their stakes'
 * roi_paid) and the postings to their income account. A corrupted total, an income record without
 * its entry, or a stake's roi_paid the ledger does not back makes verify fail.
 */
describe('ledger:verify covers the income totals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());
  const verifyCli = (ctx: AppContext) => runCommand(ctx, 'ledger:verify', []);

  it('passes after stakes, referral income, rewards and ROI, and fails on a corrupted total or a stray income record', async () => {
    const sponsor = await createUser(t.db, t.ctx.secret);
    const u = await createUser(t.db, t.ctx.secret, { referrerId: sponsor.id });
    await fundDeposit(t.db, u.id, 2000);
    await createStake(t.db, u.id, usd(1000), new Date('2024-03-01T12:00:00Z'));
    await runRoi({ db: t.db, dbKind: t.ctx.dbKind }, '2024-03-04');
    const totals = await ledger.getTotals(t.db, u.id);
    expect(totals.roi_income).toBeGreaterThan(0n);
    expect((await ledger.getTotals(t.db, sponsor.id)).referral_income).toBeGreaterThan(0n);
    expect((await ledger.verify(t.db)).ok).toBe(true);
    expect((await verifyCli(t.ctx)).exitCode).toBe(0);

    for (const field of ['roi_income', 'referral_income', 'reward_income'] as const) {
      const who = field === 'referral_income' ? sponsor.id : u.id;
      await sql`update user_totals set ${sql.ref(field)} = ${sql.ref(field)} + 1 where user_id = ${who}`.execute(t.db);
      const bad = await ledger.verify(t.db);
      expect(bad.ok).toBe(false);
      expect(bad.mismatchedTotals).toEqual([expect.objectContaining({ userId: String(who), field })]);
      const cli = await verifyCli(t.ctx);
      expect(cli.exitCode).toBe(1);
      expect(cli.output).toContain(`user ${who} ${field}: total`);
      await sql`update user_totals set ${sql.ref(field)} = ${sql.ref(field)} - 1 where user_id = ${who}`.execute(t.db);
      expect((await ledger.verify(t.db)).ok).toBe(true);
    }

    // An income record with no ledger entry behind it: records and postings disagree.
    await sql`
      insert into income_records (user_id, type, amount, note, source_id, for_date, idempotency_key)
      values (${u.id}, 1, 5, 'stray', null, null, 'stray:1')`.execute(t.db);
    const stray = await ledger.verify(t.db);
    expect(stray.ok).toBe(false);
    expect(stray.mismatchedTotals).toEqual([expect.objectContaining({ userId: String(u.id), field: 'roi_income', records: String(totals.roi_income + 5n) })]);
    await sql`delete from income_records where idempotency_key = 'stray:1'`.execute(t.db);
    expect((await ledger.verify(t.db)).ok).toBe(true);

    // ROI has no income records (migration 0137): the stakes' roi_paid is the independent side,
    // so a stake that says it was paid more than the ledger credited is reported.
    await sql`update stakes set roi_paid = roi_paid + 1 where user_id = ${u.id}`.execute(t.db);
    const overpaid = await ledger.verify(t.db);
    expect(overpaid.ok).toBe(false);
    expect(overpaid.mismatchedTotals).toEqual([
      {
        userId: String(u.id),
        field: 'roi_income',
        total: String(totals.roi_income),
        records: String(totals.roi_income + 1n),
        posted: String(totals.roi_income),
      },
    ]);
    await sql`update stakes set roi_paid = roi_paid - 1 where user_id = ${u.id}`.execute(t.db);
    expect((await ledger.verify(t.db)).ok).toBe(true);

    // Two stakes of one user, one paid 1 more and one 1 less than the ledger holds: the user's sum
    // still agrees, the per-stake check does not.
    await createStake(t.db, u.id, usd(500), new Date('2024-03-01T13:00:00Z'));
    await runRoi({ db: t.db, dbKind: t.ctx.dbKind }, '2024-03-05');
    const [a, b] = await t.db.selectFrom('stakes').select(['id', 'roi_paid']).where('user_id', '=', u.id).orderBy('id').execute();
    await sql`update stakes set roi_paid = roi_paid + case id when ${a!.id} then 1 else -1 end where id in (${a!.id}, ${b!.id})`.execute(t.db);
    const shifted = await ledger.verify(t.db);
    expect(shifted.mismatchedTotals).toEqual([]);
    expect(shifted.ok).toBe(false);
    expect(shifted.mismatchedStakes).toEqual([
      { stakeId: String(a!.id), userId: String(u.id), paid: String(BigInt(a!.roi_paid) + 1n), posted: String(a!.roi_paid) },
      { stakeId: String(b!.id), userId: String(u.id), paid: String(BigInt(b!.roi_paid) - 1n), posted: String(b!.roi_paid) },
    ]);
    const cli = await verifyCli(t.ctx);
    expect(cli.exitCode).toBe(1);
    expect(cli.output).toContain(`stake ${a!.id} of user ${u.id}: roi_paid ${BigInt(a!.roi_paid) + 1n} != ROI posted ${a!.roi_paid}`);
    await sql`update stakes set roi_paid = roi_paid - case id when ${a!.id} then 1 else -1 end where id in (${a!.id}, ${b!.id})`.execute(t.db);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });

  it("counts a stake's credits against its days at the edge: one micro-unit a day is a credit a day, less is none", async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, u.id, 200);
    const { stakeId: one } = await createStake(t.db, u.id, usd(50), new Date('2024-04-01T12:00:00Z'));
    const { stakeId: none } = await createStake(t.db, u.id, usd(50), new Date('2024-04-01T12:00:00Z'));
    // 50,000,000 micro-units a day at 0.000002 % is exactly 1 micro-unit; at 0.000001 % it is 0.5, rounded down to none.
    await sql`update stakes set daily_rate = case id when ${one} then 0.000002 else 0.000001 end where id in (${one}, ${none})`.execute(t.db);
    await runRoi({ db: t.db, dbKind: t.ctx.dbKind }, '2024-04-04');
    const paid = await t.db.selectFrom('stakes').select(['id', 'roi_paid']).where('id', 'in', [one, none]).orderBy('id').execute();
    expect(paid.map((r) => BigInt(r.roi_paid))).toEqual([3n, 0n]);
    expect((await ledger.verify(t.db)).ok).toBe(true);
    // A day the stake says was paid and the ledger never credited (its last ROI day moved on).
    await sql`update stakes set last_roi_date = last_roi_date + 1 where id = ${one}`.execute(t.db);
    const skipped = await ledger.verify(t.db);
    expect(skipped.ok).toBe(false);
    expect(skipped.mismatchedStakes).toEqual([{ stakeId: String(one), userId: String(u.id), paid: '3', posted: '3', credits: 3, days: 4 }]);
    await sql`update stakes set last_roi_date = last_roi_date - 1 where id = ${one}`.execute(t.db);
    expect((await ledger.verify(t.db)).ok).toBe(true);
  });
});
