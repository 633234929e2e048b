import { usd } from '@app/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser, fundDeposit, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { team } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { createSession } from '../auth/sessions';
import { createStake } from '../staking/service';
import { getTeamSummary, onStake, onUserCreated, rebuildTeamStats } from './service';

describe('team counters and my-team', () => {
  const t = useTestApp();

  /** A user created the way sign-up does it: with team counters. */
  async function member(sponsor?: TestUser, status?: 'inactive' | 'active' | 'blocked') {
    const u = await createUser(t.db, t.ctx.secret, { referrerId: sponsor?.id ?? null, ...(status ? { status } : {}) });
    await t.db.transaction().execute((tx) => onUserCreated(tx, u.id, sponsor?.id ?? null));
    return u;
  }
  async function stake(u: TestUser, amount: number) {
    await fundDeposit(t.db, u.id, amount);
    await createStake(t.db, u.id, usd(amount));
  }
  const summaryOf = (u: { id: bigint }) => getTeamSummary(t.db, u.id);
  const snapshot = () => t.db.selectFrom('team_stats').selectAll().orderBy('user_id').execute();
  const myTeam = (u: TestUser, query?: Record<string, string>) => inject(t.app, team.directs, { token: u.token, query });

  it('adds a second stake to business but does not count the member twice', async () => {
    const a = await member();
    const b = await member(a);
    const c = await member(b);
    await stake(c, 100);
    await stake(c, 60);
    expect(await summaryOf(a)).toEqual({ total_directs: 1, total_direct_business: 0n, total_network: 2, team_business: { users: 1, amount: usd(160) } });
    expect(await summaryOf(b)).toEqual({ total_directs: 1, total_direct_business: usd(160), total_network: 1, team_business: { users: 1, amount: usd(160) } });
    expect(await summaryOf(c)).toEqual({ total_directs: 0, total_direct_business: 0n, total_network: 0, team_business: { users: 0, amount: 0n } });
  });

  it('leaves every counter alone for a user without a sponsor (sign-up and stake)', async () => {
    await member();
    const before = await snapshot();
    const root = await member();
    await stake(root, 50);
    await t.db.transaction().execute((tx) => onStake(tx, root.id, usd(10), false));
    const after = await snapshot();
    expect(after.filter((r) => r.user_id !== root.id)).toEqual(before);
    expect(await summaryOf(root)).toEqual({ total_directs: 0, total_direct_business: 0n, total_network: 0, team_business: { users: 0, amount: 0n } });
  });

  it('counts a sign-up through the register route for the sponsor and every ancestor', async () => {
    const a = await member();
    const b = await member(a);
    const res = await inject(t.app, authApi.register, {
      body: { name: 'New Member', email: `new-${b.username.toLowerCase()}@example.test`, password: 'Secret123', referral_id: b.username.toLowerCase() },
    });
    expect(res.statusCode).toBe(200);
    expect((await summaryOf(b)).total_directs).toBe(1);
    expect((await summaryOf(b)).total_network).toBe(1);
    expect((await summaryOf(a)).total_directs).toBe(1);
    expect((await summaryOf(a)).total_network).toBe(2);
  });

  it('rebuildTeamStats reproduces the incrementally kept counters exactly', async () => {
    const roots = [await member(), await member()];
    const all: TestUser[] = [...roots];
    // A random forest 6 levels deep at most; about half the members stake, some twice.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 30; i++) all.push(await member(all[rand(all.length)]));
    for (const u of all) {
      if (rand(2) === 0) await stake(u, 50 + 10 * rand(10));
      if (rand(4) === 0) await stake(u, 70);
    }
    const kept = await snapshot();
    expect(kept.some((r) => r.network_users > 3 && BigInt(r.network_business) > 0n)).toBe(true);
    // Wreck every stored counter (team_stats is a view over these): the rebuild must restore them all.
    await sql`update team_direct set directs = 99, direct_business = 1`.execute(t.db);
    await sql`update team_network set network_users = 99, network_active_users = 99, network_business = 1`.execute(t.db);
    await sql`insert into team_pending (anchor, users, business) select user_id, 5, 5 from team_direct`.execute(t.db);
    await rebuildTeamStats(t.db);
    expect(await snapshot()).toEqual(kept);
  });

  it('keeps counters for the root of a 10,000-deep chain; a sign-up and a stake at the bottom reach every ancestor', async () => {
    const N = 10_000;
    // The chain, built in SQL: CH0000001 ← CH0000002 ← … ← CH0010000 (each the sponsor of the next),
    // found again by name: a factory's random username starts with 'CH' once in 1,296 users.
    // (Selected by username, one earlier member named so by chance broke the insert below.)
    await sql`
      insert into users (name, email, username, email_verified_at)
      select 'Chain ' || g, 'chain' || g || '@example.test', 'CH' || lpad(g::text, 7, '0'), now() from generate_series(1, ${N}) g`.execute(t.db);
    await sql`
      update users u set referrer_id = p.prev
      from (select id, lag(id) over (order by username) as prev from users where name like 'Chain %') p
      where u.id = p.id and p.prev is not null`.execute(t.db);
    // Their counters as sign-up would have left them: one direct each (but the last), everyone below as network.
    await sql`
      insert into team_direct (user_id, directs)
      select id, case when rn = ${N} then 0 else 1 end from (select id, row_number() over (order by username) as rn from users where name like 'Chain %') c`.execute(
      t.db,
    );
    await sql`
      insert into team_network (user_id, network_users)
      select id, ${N} - rn from (select id, row_number() over (order by username) as rn from users where name like 'Chain %') c`.execute(t.db);
    const root = await t.db.selectFrom('users').select(['id', 'username']).where('username', '=', 'CH0000001').executeTakeFirstOrThrow();
    const bottom = await t.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', '=', `CH${String(N).padStart(7, '0')}`)
      .executeTakeFirstOrThrow();

    const res = await inject(t.app, authApi.register, {
      body: { name: 'Deep Member', email: 'deep-member@example.test', password: 'Secret123', referral_id: bottom.username },
    });
    expect(res.statusCode).toBe(200);
    const leaf = await t.db.selectFrom('users').select('id').where('email', '=', 'deep-member@example.test').executeTakeFirstOrThrow();
    await fundDeposit(t.db, leaf.id, 70);
    await createStake(t.db, leaf.id, usd(70));

    const rows = await sql<{ n: bigint }>`
      select count(*)::bigint as n from team_stats s join (select id, row_number() over (order by username) as rn from users where name like 'Chain %') c on c.id = s.user_id
      where s.network_users = ${N + 1} - c.rn and s.network_business = ${usd(70)} and s.network_active_users = 1`.execute(t.db);
    expect(rows.rows[0]!.n).toBe(BigInt(N));
    expect(await summaryOf(bottom)).toEqual({
      total_directs: 1,
      total_direct_business: usd(70),
      total_network: 1,
      team_business: { users: 1, amount: usd(70) },
    });
    expect(await summaryOf(root)).toEqual({ total_directs: 1, total_direct_business: 0n, total_network: N, team_business: { users: 1, amount: usd(70) } });

    const token = await createSession(t.db, t.ctx.secret, root.id);
    const wallet = (await inject(t.app, userApi.wallet, { token })).data();
    expect(wallet).toMatchObject({ total_directs: 1, total_direct_business: 0, total_network: N, team_business: { users: 1, amount: 70 } });
  }, 120_000); // PGlite under a loaded CI box: the reads queue behind the drain of 10,000 ancestors' counters (kickDrain), seconds there

  it('lists only direct referrals, newest first, with their status and paging', async () => {
    const a = await member();
    const d1 = await member(a);
    await member(d1); // a grandchild: not a direct of a
    const d2 = await member(a, 'active');
    const d3 = await member(a, 'blocked');
    await t.db.updateTable('users').set({ avatar: 'https://cdn.example.test/a.png' }).where('id', '=', d2.id).execute();
    // Distinct sign-up times so "newest first" is observable.
    for (const [u, at] of [
      [d1, '2026-01-01T10:00:00Z'],
      [d2, '2026-02-01T10:00:00Z'],
      [d3, '2026-03-01T10:00:00Z'],
    ] as const)
      await t.db
        .updateTable('users')
        .set({ created_at: new Date(at) })
        .where('id', '=', u.id)
        .execute();

    const page1 = (await myTeam(a, { page: '1', per_page: '2' })).json();
    expect(page1.success).toBe(true);
    expect(page1.data.pagination).toEqual({ total: 3, page: 1, perPage: 2 });
    expect(page1.data.data).toEqual([
      { avatar: null, username: d3.username, name: d3.name, createdAt: '2026-03-01T10:00:00.000Z', status: 'blocked' },
      { avatar: 'https://cdn.example.test/a.png', username: d2.username, name: d2.name, createdAt: '2026-02-01T10:00:00.000Z', status: 'active' },
    ]);
    const page2 = (await myTeam(a, { page: '2', per_page: '2' })).data();
    expect(page2.data.map((m: { username: string | null; status: string }) => [m.username, m.status])).toEqual([[d1.username, 'inactive']]);
    const defaults = (await myTeam(a)).data();
    expect(defaults.pagination).toEqual({ total: 3, page: 1, perPage: 10 });
    const empty = (await myTeam(d2)).data();
    expect(empty).toEqual({ data: [], pagination: { total: 0, page: 1, perPage: 10 } });
  });

  it('answers 401 without a session and 400 for bad paging', async () => {
    const u = await member();
    expect((await inject(t.app, team.directs)).statusCode).toBe(401);
    expect((await myTeam(u, { per_page: '101' })).statusCode).toBe(400);
    expect((await myTeam(u, { page: 'abc' })).statusCode).toBe(400);
  });
});
