import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/app';
import { repoRoot, sourceFiles } from '../../test/source-files';
import { createUser } from '../../test/factories';
import { HISTORY_CAP, movePayments } from './status-writer';
import type { PaymentStatus } from './status';

/**
 * One writer of `payments.status` (issue 47), in the style of ledger/balance-writers.test.ts:
 * movePayments (status-writer.ts) is the only code that moves a payment's status; every gateway
 * report, cancel, window expiry, chain claim, reorg expiry and admin credit calls it. The
 * creating INSERT is not a move. Checked in the TypeScript sources and in the live SQL functions.
 */
const WRITER_FILE = path.join('apps', 'server', 'src', 'modules', 'payments', 'status-writer.ts');

/**
 * SQL that moves a status: an UPDATE of payments whose SET clause (up to WHERE, FROM or RETURNING)
 * names `status =`, or an upsert into payments whose DO UPDATE sets it.
 */
const SQL_STATUS_WRITES = [
  /update\s+payments\b(?:\s+(?:as\s+)?(?!set\b)\w+)?\s+set\b(?:(?!\bwhere\b|\bfrom\b|\breturning\b)[\s\S])*?\bstatus\s*=/i,
  /insert\s+into\s+payments\b[^;]*?on\s+conflict[^;]*?do\s+update\s+set\b(?:(?!\bwhere\b|\breturning\b)[\s\S])*?\bstatus\s*=/i,
];
/** The same through Kysely's builder: an update of payments whose set names `status` (`status: x` or shorthand `status,`), or an upsert setting it. */
const BUILDER_STATUS_WRITES = [
  /updateTable\(\s*['"]payments(?:\s+as\s+\w+)?['"]\s*\)(?:(?!\.where\(|\.execute|;)[\s\S])*?\bstatus\s*[:,}]/,
  /insertInto\(\s*['"]payments['"]\s*\)(?:(?!;)[\s\S])*?doUpdateSet\((?:(?!\.execute|;)[\s\S])*?\bstatus\s*[:,}]/,
];
const WRITES = [...SQL_STATUS_WRITES, ...BUILDER_STATUS_WRITES];

describe('one writer of payments.status', () => {
  let h: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    h = await createTestDb();
  });
  afterAll(async () => h.close());

  it('the patterns catch every way the status was written before issue 47, and not the reads next to them', () => {
    const writers = [
      // jobs.ts expirePayments
      "update payments\n    set status = 'expired',\n        updated_at = now()\n    where status = 'waiting'",
      // custody/observe.ts claimOpenPayments
      "update payments set\n        status = 'confirming',\n        tx_hash = ${o.tx_hash}",
      // custody/watcher.ts refreshConfirmations
      "update payments p set status = 'expired', confirmations = 0, updated_at = now()",
      // chain-deposits.ts recordChainDeposits
      'update payments p set actually_paid = x.paid, status = x.status from unnest(',
      // service.ts applyReport, cancelPayment; chain-deposits.ts creditHeldChainDeposit
      "await tx\n    .updateTable('payments')\n    .set({\n      status,\n      actually_paid: actuallyPaid,",
      "tx\n      .updateTable('payments')\n      .set({ status: 'expired', extra: JSON.stringify(extra), updated_at: now })",
      "insertInto('payments').values(row).onConflict((oc) => oc.column('id').doUpdateSet({ status: 'finished' })).execute()",
    ];
    for (const w of writers)
      expect(
        WRITES.some((re) => re.test(w)),
        w,
      ).toBe(true);
    const notWriters = [
      "update payments set last_checked_at = now() where status = 'waiting'",
      "update payments p set confirmations = 1, updated_at = now() from (select 1) o where p.id = o.payment_id and p.status = 'confirming'",
      "ctx.db.updateTable('payments').set({ last_checked_at: new Date() }).where('id', '=', row.id).where('status', '=', 'waiting')",
      "tx.insertInto('payments').values({ user_id: 1n, status: created.status }).returningAll()",
    ];
    for (const w of notWriters)
      expect(
        WRITES.some((re) => re.test(w)),
        w,
      ).toBe(false);
  });

  it('no TypeScript source but payments/status-writer.ts moves a status', () => {
    // Migrations are history (what they created is checked live below).
    const files = [
      ...sourceFiles(path.join(repoRoot, 'apps/server/src')),
      ...sourceFiles(path.join(repoRoot, 'packages')),
      ...sourceFiles(path.join(repoRoot, 'scripts')),
      ...sourceFiles(path.join(repoRoot, 'bench')),
      ...sourceFiles(path.join(repoRoot, 'e2e')),
    ].filter((f) => !f.includes(`${path.sep}db${path.sep}migrations${path.sep}`) && !f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    const writers = files
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        return WRITES.some((re) => re.test(text));
      })
      .map((f) => path.relative(repoRoot, f));
    expect(writers).toEqual([WRITER_FILE]);
  });

  it('no live SQL function moves a status', async () => {
    const fns = await sql<{ name: string; src: string }>`
      select p.proname as name, p.prosrc as src from pg_proc p where p.pronamespace = current_schema()::regnamespace`.execute(h.db);
    expect(fns.rows.length).toBeGreaterThan(10);
    expect(fns.rows.filter((f) => SQL_STATUS_WRITES.some((re) => re.test(f.src))).map((f) => f.name)).toEqual([]);
  });

  describe('movePayments', () => {
    const insert = async (userId: bigint, status: PaymentStatus, history: unknown[] = [{ status, at: 'then' }]) =>
      (
        await h.db
          .insertInto('payments')
          .values({
            user_id: userId,
            provider: 'sandbox',
            provider_payment_id: String(Math.floor(Math.random() * 1e15)),
            order_id: null,
            kind: 'demo',
            pay_currency: 'usdtbsc',
            price_amount: 10_000_000n,
            pay_amount: 10_000_000n,
            pay_address: '0x0',
            window_end: new Date(),
            status,
            extra: JSON.stringify({ keep: 1, history }),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const read = (id: bigint) => h.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('moves many payments in one statement, applying canMove, `from` and the admin-only move, each history entry once', async () => {
      const u = await createUser(h.db, 'x'.repeat(64));
      const [a, b, c, d, e] = [
        await insert(u.id, 'waiting'),
        await insert(u.id, 'finished'),
        await insert(u.id, 'confirming'),
        await insert(u.id, 'failed'),
        await insert(u.id, 'failed'),
      ];
      const moved = await h.db.transaction().execute((tx) =>
        movePayments(tx, [
          { id: a, status: 'expired', by: 'user', extraSet: { cancelled_at: 'now' } },
          { id: b, status: 'waiting' }, // backwards: refused
          { id: c, status: 'expired', from: ['waiting'] }, // not from where the caller expected: refused
          { id: d, status: 'finished', by: 'admin', extraUnset: ['keep'], creditedAmount: 1n },
          { id: e, status: 'finished' }, // out of failed: the admin's move only
        ]),
      );
      expect(new Set(moved.map((r) => r.id))).toEqual(new Set([a, d]));
      const ra = await read(a);
      expect(ra.status).toBe('expired');
      expect(ra.extra).toMatchObject({ keep: 1, cancelled_at: 'now' });
      expect((ra.extra.history as { status: string; by?: string }[]).map((x) => [x.status, x.by])).toEqual([
        ['waiting', undefined],
        ['expired', 'user'],
      ]);
      expect((await read(b)).status).toBe('finished');
      expect((await read(c)).status).toBe('confirming');
      const rd = await read(d);
      expect([rd.status, rd.credited_amount, 'keep' in rd.extra]).toEqual(['finished', 1n, false]);
      expect((await read(e)).status).toBe('failed');
    });

    it(`keeps the newest ${HISTORY_CAP} history entries, and appends none when the status stays`, async () => {
      const u = await createUser(h.db, 'x'.repeat(64));
      const old = Array.from({ length: HISTORY_CAP + 5 }, (_, i) => ({ status: 'waiting', at: String(i) }));
      const id = await insert(u.id, 'waiting', old);
      await h.db.transaction().execute((tx) => movePayments(tx, [{ id, status: 'waiting', confirmations: 3 }]));
      expect(((await read(id)).extra.history as unknown[]).length).toBe(HISTORY_CAP + 5);
      await h.db.transaction().execute((tx) => movePayments(tx, [{ id, status: 'partially_paid', via: ['confirming'] }]));
      const history = (await read(id)).extra.history as { status: string; at: string }[];
      expect(history).toHaveLength(HISTORY_CAP);
      expect(history.slice(-3).map((x) => x.status)).toEqual(['waiting', 'confirming', 'partially_paid']);
      expect(history[0]!.at).toBe('7');
    });
  });
});
