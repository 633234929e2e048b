import { usd } from '@app/core';
import { sql } from 'kysely';
import { createSession } from '../apps/server/src/modules/auth/sessions';
import { createStake } from '../apps/server/src/modules/staking/service';
import { drainTeam, drained, getTeamSummary, onUserCreated, pendingDeltas } from '../apps/server/src/modules/team/service';
import { fundDeposit } from '../apps/server/src/test/factories';
import { benchContext, line, listen, load, timed } from './lib';

/**
 * GET /api/user/wallet for the root of a 100,000-member downline 10,000 levels deep (a chain of
 * 10,000 with 90,000 members under its deepest node), beside the same call for a user with no
 * team; plus the write side: a sign-up and a stake at depth 10,000, which update every ancestor.
 */
export async function teamBench(seconds: number): Promise<void> {
  const { ctx, drop } = await benchContext(32);
  const { app, url } = await listen(ctx);
  try {
    const depth = 10_000;
    const total = 100_000;
    const build = await timed(async () => {
      await sql`insert into users (id, name, email, username, referrer_id, email_verified_at) overriding system value
        select g, 'Member ' || g, 'm' || g || '@example.test', 'M' || lpad(g::text, 8, '0'), case when g = 1 then null when g <= ${depth} then g - 1 else ${depth} end, now()
        from generate_series(1, ${total}) g`.execute(ctx.db);
      await sql`select setval(pg_get_serial_sequence('users', 'id'), ${total})`.execute(ctx.db);
      // Counters by formula for this shape (the code keeps them incrementally from here on).
      await sql`insert into team_direct (user_id, directs)
        select g, case when g < ${depth} then 1 when g = ${depth} then ${total - depth} else 0 end from generate_series(1, ${total}) g`.execute(ctx.db);
      await sql`insert into team_network (user_id, network_users)
        select g, case when g <= ${depth} then ${total} - g else 0 end from generate_series(1, ${total}) g`.execute(ctx.db);
      await sql`select team_tree_rebuild()`.execute(ctx.db);
      await sql`analyze`.execute(ctx.db);
    });
    line(`built ${total.toLocaleString()} members, ${depth.toLocaleString()} levels deep`, `${(build.ms / 1000).toFixed(1)} s`);
    const rootToken = await createSession(ctx.db, ctx.secret, 1n);
    const loner = await ctx.db
      .insertInto('users')
      .values({ name: 'Loner', email: 'loner@example.test', username: 'LONER0001', email_verified_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.transaction().execute((tx) => onUserCreated(tx, loner.id, null));
    const lonerToken = await createSession(ctx.db, ctx.secret, loner.id);

    // Sign-ups and stakes at depth 10,000, each timed on its own (p50 and p99 of the samples),
    // beside the same writes by users without a sponsor (the floor: the write's own work).
    const samples = Number(process.env.BENCH_TEAM_WRITES ?? 20);
    const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!.toFixed(1);
    const stats = (xs: number[]) => `p50 ${pct(xs, 0.5)} ms, p99 ${pct(xs, 0.99)} ms`;
    let n = 0;
    const signUp = (referrer: bigint | null) =>
      timed(() =>
        ctx.db.transaction().execute(async (tx) => {
          n++;
          const u = await tx
            .insertInto('users')
            .values({ name: 'Newcomer', email: `new${n}@example.test`, username: `NEWCOMER${n}`, referrer_id: referrer, email_verified_at: new Date() })
            .returning('id')
            .executeTakeFirstOrThrow();
          await onUserCreated(tx, u.id, referrer);
          return u.id;
        }),
      );
    const stake = async (id: bigint) => {
      await fundDeposit(ctx.db, id, 100);
      return (await timed(() => createStake(ctx.db, id, usd(100)))).ms;
    };
    const floorJoin: number[] = [];
    const floorStake: number[] = [];
    for (let i = 0; i < samples; i++) {
      const j = await signUp(null);
      floorJoin.push(j.ms);
      floorStake.push(await stake(j.value));
    }
    // Settled: each deep write starts with nothing pending (the previous drain finished, untimed).
    const joinMs: number[] = [];
    const stakeMs: number[] = [];
    for (let i = 0; i < samples; i++) {
      await drained();
      const j = await signUp(BigInt(total));
      joinMs.push(j.ms);
      await drained();
      stakeMs.push(await stake(j.value));
    }
    // Back to back: each write while the drains of the previous ones still run.
    const burstJoin: number[] = [];
    const burstStake: number[] = [];
    const burstIds: bigint[] = [];
    for (let i = 0; i < samples; i++) {
      const j = await signUp(BigInt(total));
      burstJoin.push(j.ms);
      burstIds.push(j.value);
    }
    for (const id of burstIds) burstStake.push(await stake(id));
    // A read right after the last write, while deltas are still pending: exact, and its cost.
    const pending = await pendingDeltas(ctx.db);
    const readPending = await timed(() => getTeamSummary(ctx.db, 1n));
    const drainAll = await timed(async () => {
      await drained();
      await drainTeam(ctx.db);
    });
    const readSettled = await timed(() => getTeamSummary(ctx.db, 1n));
    line(`sign-up, no sponsor (floor), ${samples} samples`, stats(floorJoin));
    line(`sign-up at depth ${depth + 2}, settled`, stats(joinMs));
    line(`sign-up at depth ${depth + 2}, back to back`, stats(burstJoin));
    line(`stake, no sponsor (floor), ${samples} samples`, stats(floorStake));
    line(`stake at depth ${depth + 2}, settled`, stats(stakeMs));
    line(`stake at depth ${depth + 2}, back to back`, stats(burstStake));
    line(`root team read with ${pending} deltas pending`, `${readPending.ms.toFixed(1)} ms`);
    line('rest of the drain after the last write', `${drainAll.ms.toFixed(0)} ms`);
    line('root team read, nothing pending', `${readSettled.ms.toFixed(1)} ms`);
    const root = readPending.value;
    line('root team right after the writes', `${root.total_network.toLocaleString()} members, business ${root.team_business.amount / 1_000_000n} USDT`);
    const expected = total - 1 + 2 * samples;
    for (const r of [readPending.value, readSettled.value])
      if (r.total_network !== expected || r.team_business.amount !== usd(100) * BigInt(2 * samples))
        throw new Error(`root team inexact: ${r.total_network} members (expected ${expected}), business ${r.team_business.amount}`);

    await load(`${url}/api/user/wallet`, { connections: 64, seconds: 2, headers: { authorization: `Bearer ${rootToken}` } });
    const base = await load(`${url}/api/user/wallet`, { connections: 64, seconds, headers: { authorization: `Bearer ${lonerToken}` } });
    const big = await load(`${url}/api/user/wallet`, { connections: 64, seconds, headers: { authorization: `Bearer ${rootToken}` } });
    // One connection: the latency of a single read, not the queueing of 64 on 2 cores.
    const base1 = await load(`${url}/api/user/wallet`, { connections: 1, seconds, headers: { authorization: `Bearer ${lonerToken}` } });
    const big1 = await load(`${url}/api/user/wallet`, { connections: 1, seconds, headers: { authorization: `Bearer ${rootToken}` } });
    line('GET /api/user/wallet, user with no team (1 conn)', `${base1.rps} req/s, p50 ${base1.p50} ms, p99 ${base1.p99} ms`);
    line(`GET /api/user/wallet, root of ${total.toLocaleString()} members (1 conn)`, `${big1.rps} req/s, p50 ${big1.p50} ms, p99 ${big1.p99} ms`);
    line('GET /api/user/wallet, user with no team (64 conns)', `${base.rps} req/s, p50 ${base.p50} ms, p99 ${base.p99} ms`);
    line(`GET /api/user/wallet, root of ${total.toLocaleString()} members (64 conns)`, `${big.rps} req/s, p50 ${big.p50} ms, p99 ${big.p99} ms`);
  } finally {
    await app.close();
    await drop();
  }
}
