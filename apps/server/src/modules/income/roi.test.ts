import { usd } from '@app/core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDbKind, useTestApp } from '../../test/app';
import { verifyLedgerAfterEach } from '../../test/ledger-check';
import { createUser, fundDeposit, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { income } from '@app/core/contracts/money';
import { roiCredits, roiDays } from '../../test/roi-credits';
import * as ledger from '../ledger/service';
import { updateSettings } from '../settings/service';
import { createStake } from '../staking/service';
import { addDays, isDay, runRoi } from './roi';

describe('ROI accrual and income history', () => {
  const t = useTestApp();
  beforeAll(async () => {
    // The bulk tests below find their users by name: a factory's random username can start with
    // their username prefixes (once in 1,296 users), as these decoys do, and such a user took a
    // stake with them (seen: 3,303 credits for 3,300).
    await sql`
      insert into users (name, email, username, status, email_verified_at)
      select 'Decoy ' || p, 'decoy-' || lower(p) || '@example.test', p || 'DECOY00', 'active', now()
      from unnest(array['BK', 'RC', 'BP']) p`.execute(t.db);
  });
  verifyLedgerAfterEach(() => t.db);

  const ctx = () => ({ db: t.db, dbKind: t.ctx.dbKind });
  /** `n` active users in one statement, named `${name} 1` … `${name} n`, with usernames `${prefix}0000001` … (the bulk tests find them by name). */
  const insertUsers = (n: number, name: string, prefix: string) =>
    sql`
      insert into users (name, email, username, status, email_verified_at)
      select ${name}::text || ' ' || g, lower(${name}::text) || g || '@example.test', ${prefix}::text || lpad(g::text, 7, '0'), 'active', now()
      from generate_series(1, ${n}) g`.execute(t.db);
  const user = (opts: Parameters<typeof createUser>[2] = {}) => createUser(t.db, t.ctx.secret, opts);
  /** A funded user with one stake bought on `day` (UTC noon). */
  const staker = async (amount: number, day: string) => {
    const u = await user();
    await fundDeposit(t.db, u.id, amount);
    const { stakeId } = await createStake(t.db, u.id, usd(amount), new Date(`${day}T12:00:00Z`));
    return { u, stakeId };
  };
  const stakeRow = (id: bigint) => t.db.selectFrom('stakes').select(['status', 'roi_paid', 'last_roi_date']).where('id', '=', id).executeTakeFirstOrThrow();
  const history = async (u: TestUser, query: Record<string, string>) => inject(t.app, income.history, { token: u.token, query });

  it('first credits a stake the day after it was made, never on its own day', async () => {
    const { u, stakeId } = await staker(100, '2024-01-10');
    expect((await runRoi(ctx(), '2024-01-09')).credits).toBe(0);
    expect((await runRoi(ctx(), '2024-01-10')).credits).toBe(0);
    expect(await stakeRow(stakeId)).toEqual({ status: 'active', roi_paid: 0n, last_roi_date: null });
    const r = await runRoi(ctx(), '2024-01-11');
    expect(r).toMatchObject({ credits: 1, total: usd('0.5') });
    expect(await stakeRow(stakeId)).toEqual({ status: 'active', roi_paid: usd('0.5'), last_roi_date: '2024-01-11' });
    // The credit is its ledger entry alone (migration 0137): no income record is written for it,
    // and the ROI history lists it from the ledger with the stake, rate and day it was for.
    expect(await t.db.selectFrom('income_records').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
    const listed = (await history(u, { income_type: '1', page: '1' })).json();
    expect(listed.data.pagination.total).toBe(1);
    expect(listed.data.data).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        amount: 0.5,
        note: `Daily ROI 0.5% on stake #${stakeId} for 2024-01-11`,
        for_date: '2024-01-11',
      },
    ]);
    const entry = await t.db
      .selectFrom('ledger_entries')
      .select(['kind', 'user_id'])
      .where('idempotency_key', '=', `roi:${stakeId}:2024-01-11`)
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ kind: 'roi', user_id: u.id });
    expect((await ledger.getTotals(t.db, u.id)).roi_income).toBe(usd('0.5'));
  });

  it('trims the last credit so the total is exactly the cap when the rate does not divide it', async () => {
    await updateSettings(t.db, { roi_income_percentage: '0.3' });
    let stakeId: bigint;
    let u: TestUser;
    try {
      ({ u, stakeId } = await staker(100, '2020-01-01'));
    } finally {
      await updateSettings(t.db, { roi_income_percentage: '0.5' });
    }
    // 666 days × 0.3 = 199.8, then 0.2 on day 667.
    const r = await runRoi(ctx(), addDays('2020-01-01', 700));
    expect(r.credits).toBe(667);
    expect(r.total).toBe(usd(200));
    expect(r.completed).toBe(1);
    expect(await stakeRow(stakeId)).toEqual({ status: 'completed', roi_paid: usd(200), last_roi_date: addDays('2020-01-01', 667) });
    const last = await sql<{ amount: bigint; for_date: string }>`
      select r.amount, r.for_date from ${roiCredits} r where r.user_id = ${u.id} order by r.for_date desc limit 1`.execute(t.db);
    expect(last.rows).toEqual([{ amount: usd('0.2'), for_date: addDays('2020-01-01', 667) }]);
    expect((await ledger.getBalances(t.db, u.id)).income).toBe(usd(200));
    expect((await ledger.getTotals(t.db, u.id)).roi_income).toBe(usd(200));
  });

  it('does not rescan: a completed or already credited stake is not even read again', async () => {
    const { stakeId } = await staker(50, '2023-05-01');
    const first = await runRoi(ctx(), '2023-05-03');
    expect(first.credits).toBeGreaterThanOrEqual(2);
    const again = await runRoi(ctx(), '2023-05-03');
    // Stakes from other tests may still be pending for earlier dates, never this one.
    expect(again.credits).toBe(0);
    const row = await stakeRow(stakeId);
    expect(row.last_roi_date).toBe('2023-05-03');
    const before = (await ledger.verify(t.db)).entries;
    expect((await runRoi(ctx(), '2023-05-02')).credits).toBe(0);
    expect((await ledger.verify(t.db)).entries).toBe(before);
  });

  it('credits a later run only for the days since the last one (catch-up, no double count)', async () => {
    const { u, stakeId } = await staker(200, '2022-08-01');
    await runRoi(ctx(), '2022-08-02'); // 1 day
    await runRoi(ctx(), '2022-08-06'); // down for 3 days: 4 more
    expect((await stakeRow(stakeId)).roi_paid).toBe(usd(5));
    expect((await ledger.getBalances(t.db, u.id)).income).toBe(usd(5));
    expect(await roiDays(t.db, u.id)).toEqual(['2022-08-02', '2022-08-03', '2022-08-04', '2022-08-05', '2022-08-06']);
  });

  it('refuses a date that is not a calendar day', async () => {
    for (const bad of ['2025-02-30', '2025-13-01', '25-01-01', '', '2025-01-01T00:00:00Z']) {
      expect(isDay(bad), bad).toBe(false);
      await expect(runRoi(ctx(), bad)).rejects.toThrow(/Invalid ROI date/);
    }
    expect(isDay('2024-02-29')).toBe(true);
  });

  it('credits more stakes than one chunk, each once, with mixed rates, in a single run', async () => {
    // 1,234 users with a stake each, inserted in bulk (the ROI job only reads the stake rows).
    const n = 1234;
    await insertUsers(n, 'Bulk', 'BK');
    await sql`
      insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
      select id, 100000000, case when right(username, 1)::int % 2 = 0 then 0.5 else 1.0 end, 200, '2021-03-01'
      from users where name like 'Bulk %'`.execute(t.db);
    const r = await runRoi(ctx(), '2021-03-03');
    expect(r.credits).toBe(2 * n);
    const even = Math.floor(n / 2); // BK0000002 … BK0001234 end in an even digit half the time
    const odd = n - even;
    expect(r.total).toBe(BigInt(even) * 2n * usd('0.5') + BigInt(odd) * 2n * usd(1));
    const sums = await sql<{ users: bigint; records: bigint; total: bigint }>`
      select count(distinct r.user_id)::bigint as users, count(*)::bigint as records, sum(r.amount)::bigint as total
      from ${roiCredits} r join users u on u.id = r.user_id where u.name like 'Bulk %'`.execute(t.db);
    expect(sums.rows[0]).toEqual({ users: BigInt(n), records: BigInt(2 * n), total: r.total });
    const totals = await sql<{ total: bigint }>`
      select sum(t.roi_income)::bigint as total from user_totals t join users u on u.id = t.user_id where u.name like 'Bulk %'`.execute(t.db);
    expect(totals.rows[0]!.total).toBe(r.total);
    expect((await runRoi(ctx(), '2021-03-03')).credits).toBe(0);
    // Out of the way of the other tests' later dates.
    await sql`update stakes set status = 'completed' where user_id in (select id from users where name like 'Bulk %')`.execute(t.db);
  });

  it.runIf(testDbKind === 'postgres')('three runs started together over several chunks credit each stake-day once (PostgreSQL)', async () => {
    const n = 1100;
    await insertUsers(n, 'Race', 'RC');
    await sql`
      insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
      select id, 50000000, 0.5, 200, '2018-01-01' from users where name like 'Race %'`.execute(t.db);
    const runs = await Promise.all([runRoi(ctx(), '2018-01-04'), runRoi(ctx(), '2018-01-04'), runRoi(ctx(), '2018-01-03')]);
    expect(runs.reduce((s, r) => s + r.credits, 0)).toBe(3 * n);
    expect(runs.reduce((s, r) => s + r.total, 0n)).toBe(BigInt(3 * n) * usd('0.25'));
    const dup = await sql<{ n: bigint }>`
      select count(*)::bigint as n from (
        select stake_id, for_date from ${roiCredits} r join users u on u.id = r.user_id
        where u.name like 'Race %' group by stake_id, for_date having count(*) > 1) d`.execute(t.db);
    expect(dup.rows[0]!.n).toBe(0n);
    const paid = await sql<{ bad: bigint }>`
      select count(*)::bigint as bad from stakes s join users u on u.id = s.user_id
      where u.name like 'Race %' and (s.roi_paid <> 750000 or s.last_roi_date <> '2018-01-04')`.execute(t.db);
    expect(paid.rows[0]!.bad).toBe(0n);
    const totals = await sql<{ total: bigint }>`
      select sum(t.roi_income)::bigint as total from user_totals t join users u on u.id = t.user_id where u.name like 'Race %'`.execute(t.db);
    expect(totals.rows[0]!.total).toBe(BigInt(3 * n) * usd('0.25'));
    await sql`update stakes set status = 'completed' where user_id in (select id from users where name like 'Race %')`.execute(t.db);
  });

  it('split into parts side by side: each stake-day once, each part on its own users and ROI expense account', async () => {
    const n = 301;
    await insertUsers(n, 'Part', 'BP');
    await sql`
      insert into stakes (user_id, amount, daily_rate, cap_percentage, start_date)
      select id, 100000000, 0.5, 200, '2021-04-01' from users, generate_series(1, 2) where name like 'Part %'`.execute(t.db);
    const expense = async () =>
      (
        await sql<{ total: bigint | null }>`
          select sum(balance)::bigint as total from ledger_accounts where user_id is null and kind like 'system:roi\\_expense%'`.execute(t.db)
      ).rows[0]!.total ?? 0n;
    const before = await expense();
    const r = await runRoi(ctx(), '2021-04-03', { parts: 3, chunk: 40 });
    expect(r.credits).toBe(2 * 2 * n);
    expect(await expense()).toBe(before - r.total);
    const perStakeDay = await sql<{ n: bigint }>`
      select count(*)::bigint as n from ${roiCredits} r join users u on u.id = r.user_id
      where u.name like 'Part %' group by r.stake_id, r.for_date having count(*) <> 1`.execute(t.db);
    expect(perStakeDay.rows).toEqual([]);
    // Part k posts only its users' credits (user id ≡ k mod 3) to its own expense account.
    const wrongPart = await sql<{ n: bigint }>`
      select count(*)::bigint as n from ledger_postings p join ledger_accounts a on a.id = p.account_id join ledger_entries e on e.id = p.entry_id
      join users u on u.id = e.user_id
      where u.name like 'Part %' and a.user_id is null
        and a.kind <> case when u.id % 3 = 0 then 'system:roi_expense' else 'system:roi_expense:' || (u.id % 3) end`.execute(t.db);
    expect(Number(wrongPart.rows[0]!.n)).toBe(0);
    expect((await runRoi(ctx(), '2021-04-03', { parts: 3, chunk: 40 })).credits).toBe(0);
    expect((await ledger.verify(t.db)).ok).toBe(true);
    await sql`update stakes set status = 'completed' where user_id in (select id from users where name like 'Part %')`.execute(t.db);
  });

  it('lists one income type newest first with pagination, only the caller’s', async () => {
    const other = await user();
    const { u, stakeId } = await staker(100, '2019-06-01');
    await runRoi(ctx(), '2019-06-13'); // 12 ROI credits
    const p1 = (await history(u, { income_type: '1', page: '1', per_page: '5' })).json();
    expect(p1.success).toBe(true);
    expect(p1.data.pagination).toEqual({ total: 12, page: 1, perPage: 5 });
    expect(p1.data.data).toHaveLength(5);
    expect(p1.data.data[0]).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      amount: 0.5,
      note: `Daily ROI 0.5% on stake #${stakeId} for 2019-06-13`,
      for_date: '2019-06-13',
    });
    // A date range picks credits by the day they are for, as the income chart does (issue 32,
    // items 19 and 21): the catch-up run wrote all 12 today.
    const ranged = (await history(u, { income_type: '1', start_date: '2019-06-05', end_date: '2019-06-07' })).data();
    expect(ranged.pagination.total).toBe(3);
    expect(ranged.data.map((r) => [r.for_date, r.amount])).toEqual([
      ['2019-06-07', 0.5],
      ['2019-06-06', 0.5],
      ['2019-06-05', 0.5],
    ]);
    expect(ranged.data[0]!.note).toBe(`Daily ROI 0.5% on stake #${stakeId} for 2019-06-07`);
    const p3 = (await history(u, { income_type: '1', page: '3', per_page: '5' })).data();
    expect(p3.data.map((r) => r.note.slice(-10))).toEqual(['2019-06-03', '2019-06-02']);
    const ids = [...p1.data.data, ...p3.data].map((r: { id: string }) => BigInt(r.id));
    expect(ids.slice(0, 5)).toEqual([...ids.slice(0, 5)].sort((a, b) => (a > b ? -1 : 1)));
    expect((await history(u, { income_type: '2' })).data()).toEqual({ data: [], pagination: { total: 0, page: 1, perPage: 10 } });
    expect((await history(u, { income_type: '3' })).data().pagination.total).toBe(0);
    expect((await history(other, { income_type: '1' })).data().pagination.total).toBe(0);
  });

  it('refuses a missing or unknown income_type with 400', async () => {
    const u = await user();
    for (const q of [{}, { income_type: '4' }, { income_type: 'abc' }, { income_type: '1', page: '0' }] as Record<string, string>[]) {
      const res = await history(u, q);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect((await history(u, { income_type: '5' })).json().message).toBe('income_type must be 1, 2 or 3');
  });
});
