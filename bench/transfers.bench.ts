import { sql } from 'kysely';
import pg from 'pg';
import { useLegacyFunctions, type BenchPath } from './legacy';
import { benchContext, DATABASE_URL, fundedUsers, line, listen, ON_PGLITE, POOL, ratio, timed, verifyLine } from './lib';

const CLIENTS = 32;
/** The figure is at 8 hot accounts; the growth table adds 2 (a transfer needs two), 64 and 1,000. */
export const HOT_ACCOUNTS = process.env.TRANSFER_HOT ? process.env.TRANSFER_HOT.split(',').map(Number) : [8, 2, 64, 1000];

/**
 * Transfers per second under contention: 32 clients for `seconds`, each sending 10 USDT between
 * random pairs of 8 accounts over HTTP. Baseline: a bare pg client doing exactly the correct work
 * in one transaction over the same 8 accounts — conditional debit, credit, journal row, two
 * postings — in the same lock order, on the same tables (the floor for any correct transfer).
 */
export async function transfersBench(seconds: number, path: BenchPath = 'new'): Promise<void> {
  const { ctx, drop, schema } = await benchContext(POOL ?? CLIENTS);
  if (path === 'old') await useLegacyFunctions(ctx.db, 'transfer');
  if (path === 'old') console.log('Transfers, old path (app_transfer before migration 0180: its own balance writes)');
  const { app, url } = await listen(ctx);
  try {
    const users = await fundedUsers(ctx, Math.max(...HOT_ACCOUNTS), 1_000_000);
    const until = (ms: number) => Date.now() + ms;

    type Acc = { id: string; user_id: string };
    const allAccounts = (
      await sql<Acc>`select id::text, user_id::text from ledger_accounts where kind = 'deposit' and user_id is not null order by user_id`.execute(ctx.db)
    ).rows;
    // The same statements through a bare pg client (PostgreSQL) or Kysely's one PGlite connection.
    type Run = (text: string, values: unknown[]) => Promise<{ rows: { id: string }[]; rowCount: number }>;
    const pool = ON_PGLITE ? undefined : new pg.Pool({ connectionString: DATABASE_URL, max: CLIENTS, options: `-c search_path=${schema}` });
    const inTx = async (work: (run: Run) => Promise<void>): Promise<void> => {
      if (!pool) {
        await ctx.db.transaction().execute((tx) =>
          work(async (text, values) => {
            const r = await sql.raw<{ id: string }>(text.replace(/\$(\d+)/g, (_, i: string) => `'${String(values[Number(i) - 1])}'`)).execute(tx);
            return { rows: r.rows, rowCount: Number(r.numAffectedRows ?? r.rows.length) };
          }),
        );
        return;
      }
      const c = await pool.connect();
      try {
        await c.query('begin');
        await work(async (text, values) => {
          const r = await c.query<{ id: string }>(text, values);
          return { rows: r.rows, rowCount: r.rowCount ?? 0 };
        });
        await c.query('commit');
      } catch (err) {
        await c.query('rollback');
        throw err;
      } finally {
        c.release();
      }
    };
    let seq = 0;
    const growth: string[] = [];
    for (const HOT of HOT_ACCOUNTS) {
      const hot = users.slice(0, HOT);
      const accounts = allAccounts.slice(0, HOT);
      const pick = () => hot[Math.floor(Math.random() * hot.length)]!;
      // The bare baseline writes balances itself, which the ledger's guard refuses (migration 0180):
      // the guard is off while it runs (the old path never had it).
      await sql`alter table ledger_accounts disable trigger ledger_accounts_balance_writer`.execute(ctx.db);
      const baseEnd = until(seconds * 1000);
      let baseOps = 0;
      const base = await timed(() =>
        Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (Date.now() < baseEnd) {
              const a = Math.floor(Math.random() * HOT);
              let b = Math.floor(Math.random() * HOT);
              if (b === a) b = (b + 1) % HOT;
              const from = accounts[a]!;
              const to = accounts[b]!;
              const [first, second] = a < b ? [from, to] : [to, from];
              await inTx(async (run) => {
                const e = await run(`insert into ledger_entries (idempotency_key, kind, user_id) values ($1, 'transfer', $2) returning id::text`, [
                  `bare:${process.pid}:${seq++}`,
                  from.user_id,
                ]);
                // Lock order by user id, as the ledger does; the debit is conditional.
                for (const acc of [first, second]) {
                  const r = await run(`update ledger_accounts set balance = balance + $2 where id = $1 and balance + $2 >= 0`, [
                    acc.id,
                    acc === from ? -10_000_000 : 10_000_000,
                  ]);
                  if (r.rowCount !== 1) throw new Error('insufficient');
                }
                await run(`insert into ledger_postings (entry_id, account_id, amount) values ($1, $2, -10000000), ($1, $3, 10000000)`, [
                  e.rows[0]!.id,
                  from.id,
                  to.id,
                ]);
              });
              baseOps++;
            }
          }),
        ),
      );

      if (path === 'new') await sql`alter table ledger_accounts enable trigger ledger_accounts_balance_writer`.execute(ctx.db);
      const end = until(seconds * 1000);
      let ok = 0;
      let failed = 0;
      const real = await timed(() =>
        Promise.all(
          Array.from({ length: CLIENTS }, async () => {
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
      const baseRate = Math.round(baseOps / (base.ms / 1000));
      const realRate = Math.round(ok / (real.ms / 1000));
      line(`baseline: bare-SQL transfer, ${ON_PGLITE ? 'PGlite' : 'pg client'} (${CLIENTS} clients, ${HOT} accounts)`, `${baseRate} tx/s`);
      line(
        `POST /api/user/fund-transfer (${CLIENTS} clients, ${HOT} accounts)`,
        `${realRate} transfers/s, ${failed} refused, ${ratio(realRate, baseRate)} of baseline`,
      );
      growth.push(`| ${HOT} | ${realRate} | ${baseRate} | ${ratio(realRate, baseRate)} | ${failed} |`);
    }
    await pool?.end();
    console.log(
      `\n${ON_PGLITE ? 'PGlite' : 'PostgreSQL'} transfers, growth (markdown):\n| hot accounts | transfers/s | bare-SQL tx/s | ratio | refused |\n| --- | --- | --- | --- | --- |`,
    );
    for (const g of growth) console.log(g);
    line('ledger:verify', await verifyLine(ctx.db));
  } finally {
    await app.close();
    await drop();
  }
}
