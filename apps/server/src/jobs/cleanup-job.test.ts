import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app';
import { createUser } from '../test/factories';
import { runCleanup } from './cleanup-job';

const DAY = 86_400_000;

/**
 * The daily clean-up runs each module's purge (auth, social, mail): every module deletes its own
 * expired rows and counts them under its table's name. What is still alive stays.
 */
describe('the daily clean-up job', () => {
  const t = useTestApp();

  it("deletes each module's expired rows, keeps the live ones, and finds nothing the second time", async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const at = (ms: number) => new Date(Date.now() + ms);
    const ids = async <T extends { id: bigint }>(rows: Promise<T[]>) => (await rows).map((r) => r.id);

    const challenge = (expires: Date) =>
      t.db
        .insertInto('login_challenges')
        .values({ user_id: u.id, challenge_hash: randomUUID(), attempts: 0, used_at: null, expires_at: expires })
        .returning('id');
    const [deadChallenge] = await ids(challenge(at(-2 * DAY)).execute());
    const [liveChallenge] = await ids(challenge(at(-DAY / 2)).execute());

    const trip = (expires: Date) =>
      t.db
        .insertInto('social_logins')
        .values({ state_hash: randomUUID(), provider: 'google', nonce: 'n', code_verifier: 'v', ref: null, expires_at: expires })
        .returning('id');
    const [deadTrip] = await ids(trip(at(-2 * DAY)).execute());
    const [liveTrip] = await ids(trip(at(DAY)).execute());

    const signup = (expires: Date, completed: Date | null) =>
      t.db
        .insertInto('social_signups')
        .values({
          cookie_hash: randomUUID(),
          provider: 'google',
          subject: randomUUID(),
          email: `${randomUUID()}@example.com`,
          name: 'N',
          username: 'U',
          email_verified: true,
          user_id: null,
          completed_at: completed,
          expires_at: expires,
        })
        .returning('id');
    const [deadSignup] = await ids(signup(at(-2 * DAY), null).execute());
    const [doneSignup] = await ids(signup(at(-2 * DAY), at(-3 * DAY)).execute());

    const mail = (status: 'sent' | 'pending', sent: Date | null) =>
      t.db.insertInto('mail_outbox').values({ user_id: null, to_email: 'a@example.com', kind: 'welcome', payload: {}, status, sent_at: sent }).returning('id');
    const [oldMail] = await ids(mail('sent', at(-91 * DAY)).execute());
    const [recentMail] = await ids(mail('sent', at(-89 * DAY)).execute());

    const first = await runCleanup(t.ctx);
    expect(first).toMatchObject({ login_challenges: 1, social_logins: 1, social_signups: 1, sent_mail: 1 });
    expect(Object.keys(first).sort()).toEqual(
      ['guess_budgets', 'login_challenges', 'otp_challenges', 'sent_mail', 'sessions', 'social_logins', 'social_signups', 'unverified_users'].sort(),
    );
    expect(await ids(t.db.selectFrom('login_challenges').select('id').where('id', 'in', [deadChallenge!, liveChallenge!]).execute())).toEqual([liveChallenge]);
    expect(await ids(t.db.selectFrom('social_logins').select('id').where('id', 'in', [deadTrip!, liveTrip!]).execute())).toEqual([liveTrip]);
    expect(await ids(t.db.selectFrom('social_signups').select('id').where('id', 'in', [deadSignup!, doneSignup!]).execute())).toEqual([doneSignup]);
    expect(await ids(t.db.selectFrom('mail_outbox').select('id').where('id', 'in', [oldMail!, recentMail!]).execute())).toEqual([recentMail]);

    const second = await runCleanup(t.ctx);
    expect(second).toMatchObject({ login_challenges: 0, social_logins: 0, social_signups: 0, sent_mail: 0, sessions: 0 });
  });
});
