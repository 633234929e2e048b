import { usd } from '@app/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { txRetries } from '../../db/tx';
import { AppError } from '../../lib/errors';
import { testDbKind } from '../../test/app';
import { useProcessPools } from '../../test/process-pools';
import { createUser, fundDeposit, fundIncome } from '../../test/factories';
import * as ledger from '../ledger/service';
import { createStake } from '../staking/service';
import { createTransfer } from '../transfers/service';
import { runRoi } from './roi';
import { roiCredits } from '../../test/roi-credits';
import { propertySeed } from '../../test/property-knobs';
import { seededRandom } from '../../test/seeded-random';

/**
 * ROI runs from three "processes" (each its own pool on one PostgreSQL schema) at once, round
 * after round, with stakes (paying referral income up the line) and income transfers running
 * beside them: no run and no operation fails with a deadlock, each stake-day is credited once,
 * the ledger verifies.
 */
describe.runIf(testDbKind === 'postgres')('parallel ROI runs beside money operations (PostgreSQL)', () => {
  const { main, procs } = useProcessPools(3, 12);

  it('credits each stake-day once over 6 rounds of 3 simultaneous runs with stakes and transfers racing them', async () => {
    const secret = 'x'.repeat(64);
    const users: { id: bigint; username: string }[] = [];
    for (let i = 0; i < 60; i++) {
      // Referral lines of four, so every stake pays a sponsor's income account.
      const u = await createUser(main.db, secret, { referrerId: i % 4 ? users[i - 1]!.id : null });
      await fundDeposit(main.db, u.id, 10_000);
      await fundIncome(main.db, u.id, 1_000);
      users.push(u);
    }
    const stakeIds: bigint[] = [];
    for (const u of users) {
      for (let k = 0; k < 6; k++) {
        const { stakeId } = await createStake(main.db, u.id, usd(100));
        await sql`update stakes set start_date = '2026-01-01' where id = ${stakeId}`.execute(main.db);
        stakeIds.push(stakeId);
      }
    }
    const retriesBefore = txRetries.count;
    // Who acts is drawn from the shared seed (FC_SEED, test/property-knobs.ts); the interleaving is the machine's.
    const random = seededRandom(propertySeed(60));
    const pick = () => users[Math.floor(random() * users.length)]!;
    const proc = (i: number) => procs[i % procs.length]!;
    let ops = 0;
    for (let round = 0; round < 6; round++) {
      const date = `2026-01-${String(3 + round * 2).padStart(2, '0')}`;
      const work: Promise<unknown>[] = procs.map((p) => runRoi({ db: p.db, dbKind: 'postgres' }, date));
      for (let i = 0; i < 80; i++) {
        const from = pick();
        let to = pick();
        while (to === from) to = pick();
        ops++;
        work.push(
          (i % 2
            ? createStake(proc(i).db, from.id, usd(50))
            : createTransfer(proc(i).db, from.id, { username: to.username, amount_usd: 10, type: 'withdraw' })
          ).catch((err: unknown) => {
            // Running out of balance is an answer; anything else (a deadlock) fails the test.
            if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE') return;
            throw err;
          }),
        );
      }
      await Promise.all(work);
    }
    // Up to 2026-01-13: days 02..13 for every back-dated stake, each once.
    const perStake = (
      await sql<{ n: string; days: string }>`
        select count(*) as n, count(distinct r.for_date) as days from ${roiCredits} r group by r.stake_id`.execute(main.db)
    ).rows;
    expect(perStake).toHaveLength(stakeIds.length);
    for (const r of perStake) expect([Number(r.n), Number(r.days)]).toEqual([12, 12]);
    const entries = await main.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('kind', '=', 'roi')
      .executeTakeFirstOrThrow();
    // One entry per user and day (migration 0180), with a posting per stake.
    expect(Number(entries.n)).toBe(users.length * 12);
    expect((await ledger.verify(main.db)).ok).toBe(true);
    console.log(
      `[roi-parallel] 6 rounds × 3 simultaneous ROI runs, ${ops} stakes/transfers racing them, ${stakeIds.length * 12} stake-days credited once, ${txRetries.count - retriesBefore} deadlock/serialization retries absorbed`,
    );
  }, 120_000);
});
