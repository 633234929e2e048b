import { usd } from '@app/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { fundDeposit } from '../../test/factories';
import { inject } from '../../test/api';
import { auth as authApi } from '@app/core/contracts/auth';
import { user as userApi } from '@app/core/contracts/user';
import { createSession } from '../auth/sessions';
import * as ledger from '../ledger/service';
import { createStake } from '../staking/service';
import { drainTeam, drained, getTeamSummary, onStake, onUserCreated, pendingDeltas, rebuildTeamStats } from './service';

/**
 * Deep downlines (docs/decisions/2026-11-23-deep-team-counters.md): sign-ups and stakes leave one
 * pending delta, folded later; every read must still count it at once, for every ancestor and for
 * nobody else.
 */
describe('team counters with pending deltas', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await drained();
    await t.close();
  });

  const snapshot = async () =>
    (
      await sql<{ user_id: string; directs: number; direct_business: string; network_users: number; network_active_users: number; network_business: string }>`
        select user_id::text, directs, direct_business::text, network_users, network_active_users, network_business::text from team_stats order by user_id`.execute(
        t.db,
      )
    ).rows;

  /** Users inserted in SQL under a prefix: `parents[i]` is the index of user i's sponsor (-1: none). */
  async function forest(prefix: string, parents: number[]): Promise<bigint[]> {
    const rows = await t.db
      .insertInto('users')
      .values(
        parents.map((_, i) => ({
          name: `${prefix} ${i}`,
          email: `${prefix.toLowerCase()}${i}@example.test`,
          username: `${prefix}${String(i).padStart(9 - prefix.length, '0')}`,
          email_verified_at: new Date(),
        })),
      )
      .returning(['id', 'username'])
      .execute();
    const ids = [...rows].sort((a, b) => (a.username < b.username ? -1 : 1)).map((r) => r.id);
    const links = parents.flatMap((p, i) => (p < 0 ? [] : [sql`(${ids[i]!}::bigint, ${ids[p]!}::bigint)`]));
    if (links.length) await sql`update users u set referrer_id = v.parent from (values ${sql.join(links)}) as v(id, parent) where u.id = v.id`.execute(t.db);
    return ids;
  }

  it('every read counts pending deltas for exactly the anchor and its ancestors, at every distance', async () => {
    // A random tree about 300 levels deep with side branches hanging off every depth.
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const parents = [-1];
    for (let i = 1; i < 400; i++) parents.push(rand(4) === 0 ? rand(i) : i - 1);
    const ids = await forest('PD', parents);
    await rebuildTeamStats(t.db); // counters and jump pointers for the users inserted in SQL
    await drained();
    expect(await pendingDeltas(t.db)).toBe(0);

    // Sign-ups and stakes in their own transactions, as the routes run them, but nothing drains:
    // every delta stays pending while the figures are read.
    const staked = new Map<bigint, bigint>();
    for (let i = 0; i < 40; i++) {
      const sponsor = ids[rand(ids.length)]!;
      const u = await forest(`PN${i}X`, [-1]);
      await t.db.updateTable('users').set({ referrer_id: sponsor }).where('id', '=', u[0]!).execute();
      await t.db.transaction().execute((tx) => onUserCreated(tx, u[0]!, sponsor));
      ids.push(u[0]!);
    }
    for (let i = 0; i < 40; i++) {
      const who = ids[rand(ids.length)]!;
      const amount = usd(10 + rand(90));
      const first = !staked.has(who);
      staked.set(who, (staked.get(who) ?? 0n) + amount);
      await t.db.transaction().execute(async (tx) => {
        await ledger.bumpTotals(tx, who, { total_staked: amount });
        await onStake(tx, who, amount, first);
      });
    }
    expect(await pendingDeltas(t.db)).toBeGreaterThanOrEqual(60);

    // What readers see now equals a rebuild from users and totals (which folds everything).
    const whilePending = await snapshot();
    expect(whilePending.some((r) => r.network_users > 300 && BigInt(r.network_business) > 0n)).toBe(true);
    await rebuildTeamStats(t.db);
    expect(await pendingDeltas(t.db)).toBe(0);
    expect(await snapshot()).toEqual(whilePending);
  });

  it('the drainer folds pending deltas into the same figures, once, whatever runs it again', async () => {
    const ids = await forest('DR', [-1, 0, 1, 2, 3, 2, 5, 6]);
    await rebuildTeamStats(t.db);
    for (const [i, sponsor] of [
      [8, 7],
      [9, 4],
      [10, 9],
    ] as const) {
      const u = await forest(`DR${i}X`, [-1]);
      await t.db.updateTable('users').set({ referrer_id: ids[sponsor]! }).where('id', '=', u[0]!).execute();
      await t.db.transaction().execute((tx) => onUserCreated(tx, u[0]!, ids[sponsor]!));
      ids.push(u[0]!);
    }
    await t.db.transaction().execute(async (tx) => {
      await ledger.bumpTotals(tx, ids[10]!, { total_staked: usd(25) });
      await onStake(tx, ids[10]!, usd(25), true);
    });
    expect(await pendingDeltas(t.db)).toBe(4);
    const before = await snapshot();
    await drained();
    await drainTeam(t.db, 1); // one delta per transaction
    await drainTeam(t.db); // nothing left: a no-op
    expect(await pendingDeltas(t.db)).toBe(0);
    expect(await snapshot()).toEqual(before);
    expect(await getTeamSummary(t.db, ids[0]!)).toEqual({
      total_directs: 1,
      total_direct_business: 0n,
      total_network: 10,
      team_business: { users: 1, amount: usd(25) },
    });
    // A side branch (ids[5..8]) above nobody who staked: not counted there.
    expect((await getTeamSummary(t.db, ids[5]!)).team_business).toEqual({ users: 0, amount: 0n });
    await rebuildTeamStats(t.db);
    expect(await snapshot()).toEqual(before);
  });

  it('a register and a stake 2,000 levels down show in the root wallet on the very next request', async () => {
    const N = 2_000;
    const ids = await forest(
      'DP',
      Array.from({ length: N }, (_, i) => i - 1),
    );
    // A user whose username sorts before 'DP0000000' but who is not in the chain: a rank taken by
    // username prefix would count it and shift every counter by one.
    await t.db.insertInto('users').values({ name: 'Decoy DP', email: 'decoy-dp@example.test', username: 'DP00000', email_verified_at: new Date() }).execute();
    // Counters as sign-ups would have left them (user i: one direct but the last, N - 1 - i below);
    // the jump pointers come lazily with the first delta anchored down there.
    const rank = sql`(select u.id, row_number() over (order by u.username) - 1 as i from users u where u.name like 'DP %')`;
    await sql`insert into team_direct (user_id, directs) select id, case when i = ${N - 1} then 0 else 1 end from ${rank} r`.execute(t.db);
    await sql`insert into team_network (user_id, network_users) select id, ${N - 1} - i from ${rank} r`.execute(t.db);
    const bottom = await t.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', ids[N - 1]!)
      .executeTakeFirstOrThrow();
    const middle = ids[N / 2 - 1]!; // depth 999
    const tokens = await Promise.all([ids[0]!, middle, ids[N - 1]!].map((id) => createSession(t.db, t.ctx.secret, id)));
    const wallet = async (token: string) => (await inject(t.app, userApi.wallet, { token })).data();

    const res = await inject(t.app, authApi.register, {
      body: { name: 'Deep Leaf', email: 'deep-leaf@example.test', password: 'Secret123', referral_id: bottom.username },
    });
    expect(res.statusCode).toBe(200);
    expect(await wallet(tokens[0]!)).toMatchObject({ total_directs: 1, total_network: N, team_business: { users: 0, amount: 0 } });
    expect(await wallet(tokens[1]!)).toMatchObject({ total_directs: 1, total_network: N / 2 + 1, team_business: { users: 0, amount: 0 } });

    const leaf = await t.db.selectFrom('users').select('id').where('email', '=', 'deep-leaf@example.test').executeTakeFirstOrThrow();
    await fundDeposit(t.db, leaf.id, 70);
    await createStake(t.db, leaf.id, usd(70));
    for (const token of tokens) expect((await wallet(token)).team_business).toEqual({ users: 1, amount: 70 });
    expect(await wallet(tokens[2]!)).toMatchObject({ total_directs: 1, total_direct_business: 70, total_network: 1 });

    // And after the drains: the same figures, now from the folded counters alone.
    await drained();
    await drainTeam(t.db);
    expect(await pendingDeltas(t.db)).toBe(0);
    expect(await wallet(tokens[0]!)).toMatchObject({ total_directs: 1, total_network: N, team_business: { users: 1, amount: 70 } });

    // One more member at the bottom, drained in slices of 300 levels: each slice folds 300
    // ancestors and re-anchors the rest of the delta higher up; every figure stays exact between.
    const extra = await forest('DQ', [-1]);
    await t.db
      .updateTable('users')
      .set({ referrer_id: ids[N - 1]! })
      .where('id', '=', extra[0]!)
      .execute();
    await t.db.transaction().execute((tx) => onUserCreated(tx, extra[0]!, ids[N - 1]!));
    let slices = 0;
    while ((await pendingDeltas(t.db)) > 0 && slices < 20) {
      await t.db.transaction().execute((tx) => sql`select team_drain(1000, 300)`.execute(tx));
      slices++;
      expect(await wallet(tokens[0]!)).toMatchObject({ total_network: N + 1, team_business: { users: 1, amount: 70 } });
      expect(await wallet(tokens[1]!)).toMatchObject({ total_network: N / 2 + 2, team_business: { users: 1, amount: 70 } });
      expect(await wallet(tokens[2]!)).toMatchObject({ total_directs: 2, total_network: 2 });
    }
    expect(slices).toBe(Math.ceil(N / 300)); // the anchor is at depth N - 1: N levels to fold
    await rebuildTeamStats(t.db);
    expect(await wallet(tokens[0]!)).toMatchObject({ total_network: N + 1, team_business: { users: 1, amount: 70 } });
  });
});
