import { sql } from 'kysely';
import { createUser, fundDeposit, type TestUser } from '../apps/server/src/test/factories';
import { benchContext, line, listen, timed } from './lib';

/**
 * Transfers per second under contention: 64 clients for `seconds`, each sending 10 USDT between
 * random pairs of 8 accounts over HTTP. Baseline: the same contention on a bare two-row UPDATE
 * transaction (the floor for any transfer that moves two balances).
 */
export async function transfersBench(seconds: number): Promise<void> {
  const { ctx, drop } = await benchContext(32);
  const { app, url } = await listen(ctx);
  try {
    const users: TestUser[] = [];
    for (let i = 0; i < 8; i++) {
      const u = await createUser(ctx.db, ctx.secret);
      await fundDeposit(ctx.db, u.id, 1_000_000);
      users.push(u);
    }
    const pick = () => users[Math.floor(Math.random() * users.length)]!;
    const until = (ms: number) => Date.now() + ms;

    await sql`create table bench_pairs (id int primary key, balance bigint not null)`.execute(ctx.db);
    await sql`insert into bench_pairs select g, 1000000000000 from generate_series(1, 8) g`.execute(ctx.db);
    const baseEnd = until(seconds * 1000);
    let baseOps = 0;
    const base = await timed(() =>
      Promise.all(
        Array.from({ length: 64 }, async () => {
          while (Date.now() < baseEnd) {
            const a = 1 + Math.floor(Math.random() * 8);
            let b = 1 + Math.floor(Math.random() * 8);
            if (b === a) b = (b % 8) + 1;
            const [lo, hi] = a < b ? [a, b] : [b, a];
            await ctx.db.transaction().execute(async (tx) => {
              await sql`update bench_pairs set balance = balance - 10 where id = ${lo}`.execute(tx);
              await sql`update bench_pairs set balance = balance + 10 where id = ${hi}`.execute(tx);
            });
            baseOps++;
          }
        }),
      ),
    );

    const end = until(seconds * 1000);
    let ok = 0;
    let failed = 0;
    const real = await timed(() =>
      Promise.all(
        Array.from({ length: 64 }, async () => {
          while (Date.now() < end) {
            const a = pick();
            let b = pick();
            while (b === a) b = pick();
            const res = await fetch(`${url}/api/user/fund-transfer`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${a.token}` },
              body: JSON.stringify({ username: b.username, amount_usd: 10, type: 'deposit' }),
            });
            await res.arrayBuffer();
            if (res.ok) ok++;
            else failed++;
          }
        }),
      ),
    );
    const verify = await (await import('../apps/server/src/modules/ledger/service')).verify(ctx.db);
    line('baseline: bare two-row UPDATE transaction (64 clients, 8 rows)', `${Math.round(baseOps / (base.ms / 1000))} tx/s`);
    line(
      'POST /api/user/fund-transfer (64 clients, 8 accounts)',
      `${Math.round(ok / (real.ms / 1000))} transfers/s, ${failed} refused, ledger verify ${verify.ok ? 'OK' : 'BROKEN'}`,
    );
  } finally {
    await app.close();
    await drop();
  }
}
