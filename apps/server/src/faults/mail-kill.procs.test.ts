import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../test/app';
import { createUser } from '../test/factories';
import { startFaultyMailbox } from '../test/faulty-mailbox';
import { queueMail } from '../modules/mail/outbox';
import { freePort, newTarget, startServer, withDb, type ServerProc, type Target } from '../test/faults/procs';

/**
 * The server killed with -9 while the mail server has a mail but has not answered yet: the mail
 * was delivered, the outbox row is still leased. After a restart the row goes out again once its
 * lease (twice SMTP_TIMEOUT_SECONDS, checked, then run out by the test instead of waited for) is
 * over, with the same Message-ID, so the receiver's mail client shows one mail; the other rows are
 * each delivered once. (PostgreSQL only: the outbox's SQL is the same on PGlite, where each of the
 * five opens of the data directory here costs seconds; the in-process mail tests run on both.)
 */
describe.runIf(testDbKind === 'postgres')('mail outbox: kill -9 mid-send (real server processes)', () => {
  let t: Target;
  let smtp: Awaited<ReturnType<typeof startFaultyMailbox>> | undefined;
  const servers: ServerProc[] = [];
  afterAll(async () => {
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
    await smtp?.close();
    await t?.drop();
  });

  it('a duplicate after the restart carries the same Message-ID; nothing is lost', async () => {
    t = await newTarget('postgres');
    const ROWS = 4;
    const ids = await withDb(t, async (h) => {
      const out: bigint[] = [];
      for (let i = 0; i < ROWS; i++) out.push(await queueMail(h.db, (await createUser(h.db, t.secret)).id, 'password_changed', {}, { wake: false }));
      return out;
    });
    smtp = await startFaultyMailbox('hold');
    // Generous enough that the kill always lands before the send gives up, even on a busy machine.
    const env = { SMTP_URL: smtp.url, SMTP_TIMEOUT_SECONDS: '5', JOBS_ENABLED: 'true' };
    const first = startServer(t, await freePort(), env);
    servers.push(first);
    // The first job tick claims one row and sends it; the mail server takes it and never answers.
    await smtp.waitForCount(1, 45_000);
    first.proc.kill('SIGKILL');
    await first.exited;
    // One row leased (not a batch), for about twice the SMTP timeout (not 120 s).
    const leased = await withDb(t, (h) =>
      h.db
        .selectFrom('mail_outbox')
        .select(['id', 'attempts', sql<number>`extract(epoch from next_attempt_at - now())`.as('lease_left')])
        .where('attempts', '>', 0)
        .execute(),
    );
    expect(leased).toHaveLength(1);
    expect(Number(leased[0]!.lease_left)).toBeGreaterThan(0);
    expect(Number(leased[0]!.lease_left)).toBeLessThanOrEqual(10);
    // The lease runs out (what waiting up to 10 s would do).
    await withDb(t, (h) => h.db.updateTable('mail_outbox').set({ next_attempt_at: new Date() }).where('id', '=', leased[0]!.id).execute());

    smtp.setMode('accept');
    const second = startServer(t, await freePort(), env);
    servers.push(second);
    await smtp.waitForCount(ROWS + 1, 45_000);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const byId = new Map<string, typeof smtp.mails>();
    for (const m of smtp.mails) byId.set(m.messageId, [...(byId.get(m.messageId) ?? []), m]);
    expect(byId.size).toBe(ROWS);
    const dup = [...byId.values()].filter((ms) => ms.length > 1);
    expect(dup).toHaveLength(1);
    expect(dup[0]!.map((m) => m.to)).toEqual([dup[0]![0]!.to, dup[0]![0]!.to]);
    for (const id of byId.keys()) expect(id).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    const rows = await withDb(t, (h) => h.db.selectFrom('mail_outbox').select(['id', 'status']).orderBy('id').execute());
    expect(rows).toEqual(ids.map((id) => ({ id, status: 'sent' })));
    console.log(`[faults] ${testDbKind}: kill -9 mid-send: ${smtp.mails.length} deliveries of ${ROWS} mails, 1 duplicate with the same Message-ID, all sent`);
  }, 120_000);
});
