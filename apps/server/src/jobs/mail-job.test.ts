import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxBacklog, queueMails } from '../modules/mail/outbox';
import { createTestApp, type TestApp } from '../test/app';
import { createUser } from '../test/factories';
import { mailJob } from './mail-job';
import { startJobs } from './scheduler';

const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} } as unknown as FastifyBaseLogger;

/**
 * The mail job at shutdown, as the app's own drainer (modules/mail/outbox-stop.test.ts): stopping
 * the jobs runner waits for the mail being sent, not for the whole backlog.
 */
describe('the mail job at shutdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // The app closed: its own drainer is stopped, so only the job sends.
    await t.app.close();
  });
  afterAll(async () => t.close());

  it('stops after the mail in hand and leaves the rest queued for the next run', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await queueMails(
      t.db,
      Array.from({ length: 40 }, () => ({ userId: u.id, kind: 'password_changed' as const })),
    );
    const jobs = startJobs(t.ctx, quiet, [mailJob], { firstDelayMs: 0 });
    for (const deadline = Date.now() + 15_000; t.mailbox.mails.length === 0;) {
      if (Date.now() > deadline) throw new Error('the mail job sent nothing');
      await new Promise((r) => setTimeout(r, 20));
    }
    await jobs.stop();
    const { pending } = await outboxBacklog(t.db);
    expect(pending).toBeGreaterThan(0);
    const sent = await sql<{ n: number }>`select count(*)::int as n from mail_outbox where status = 'sent'`.execute(t.db);
    expect(sent.rows[0]!.n + pending).toBe(40);
  });
});
