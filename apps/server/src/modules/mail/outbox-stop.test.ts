import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createUser } from '../../test/factories';
import { outboxBacklog, queueMails } from './outbox';

/**
 * The app's outbox drainer at shutdown: closing the app waits for the mail being sent, not for the
 * whole backlog. Before, a close with 60 mails queued waited 11 s while they went out one by one
 * (the signer test's teardown); a SIGTERM in production would have waited for any backlog.
 */
describe('the outbox drainer at shutdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('stops after the mail in hand and leaves the rest queued for the next drain', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await queueMails(
      t.db,
      Array.from({ length: 40 }, () => ({ userId: u.id, kind: 'password_changed' as const })),
    );
    // The app's drainer is at work: its first mail has reached the mailbox.
    for (const deadline = Date.now() + 15_000; t.mailbox.mails.length === 0;) {
      if (Date.now() > deadline) throw new Error('the drainer sent nothing');
      await new Promise((r) => setTimeout(r, 20));
    }
    await t.app.close();
    const { pending } = await outboxBacklog(t.db);
    expect(pending).toBeGreaterThan(0);
    const sent = await sql<{ n: number }>`select count(*)::int as n from mail_outbox where status = 'sent'`.execute(t.db);
    // Every row sent or still waiting for the next drain (none failed by the stop).
    expect(sent.rows[0]!.n + pending).toBe(40);
  });
});
