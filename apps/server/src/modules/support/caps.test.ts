import { describe, expect, it } from 'vitest';
import { SUPPORT_MAX_USER_REPLIES } from '@app/core';
import { support } from '@app/core/contracts/support';
import { testDbKind, useTestApp } from '../../test/app';
import { inject } from '../../test/api';
import { createUser, type TestUser } from '../../test/factories';

/**
 * "The small doors", finding 5: the cap of 20 open tickets was checked on create only, so a user
 * with 20 open tickets reopened any number of answered or closed ones by replying to them, and a
 * ticket took replies without end. Both failed before the fix (the 21st open ticket and the 51st
 * reply were a 200).
 */
describe('support ticket caps on replies', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '10000' });
  const CAP_MESSAGE = 'You have too many open tickets. Please wait for a reply.';
  const REPLY = 'One more thing about this, please';

  const tickets = async (u: TestUser, status: 'open' | 'answered' | 'closed', n: number) => {
    const rows = await t.db
      .insertInto('support_tickets')
      .values(Array.from({ length: n }, (_, i) => ({ user_id: u.id, type: 'general', message: `Ticket number ${i} of ${status}`, status })))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  };
  const openCount = async (u: TestUser) =>
    (await t.db.selectFrom('support_tickets').select('id').where('user_id', '=', u.id).where('status', '=', 'open').execute()).length;
  const repliesOf = async (id: bigint) => (await t.db.selectFrom('support_ticket_replies').select('id').where('ticket_id', '=', id).execute()).length;
  const reply = (u: TestUser, id: bigint, message = REPLY) => inject(t.app, support.reply, { token: u.token, params: { id: String(id) }, body: { message } });

  it('refuses a reply that would reopen a 21st ticket, with the answer of the cap on create, and writes nothing', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const open = await tickets(u, 'open', 20);
    const [answered] = await tickets(u, 'answered', 1);
    const [closed] = await tickets(u, 'closed', 1);
    const create = await inject(t.app, support.create, { token: u.token, body: { type: 'general', message: 'A twenty-first ticket' } });
    for (const id of [answered!, closed!]) {
      const res = await reply(u, id);
      expect(res.statusCode, res.body).toBe(create.statusCode);
      expect(res.json()).toEqual(create.json());
      expect(res.json()).toEqual({ success: false, code: 'RATE_LIMITED', message: CAP_MESSAGE });
      expect(await repliesOf(id)).toBe(0);
    }
    expect(await openCount(u)).toBe(20);
    const statuses = await t.db.selectFrom('support_tickets').select('status').where('id', 'in', [answered!, closed!]).orderBy('id').execute();
    expect(statuses.map((s) => s.status)).toEqual(['answered', 'closed']);
    // A reply to a ticket that is open already reopens nothing and is still taken.
    expect((await reply(u, open[0]!)).statusCode).toBe(200);
    // Below the cap, a reply reopens as before.
    await t.db.updateTable('support_tickets').set({ status: 'closed' }).where('id', '=', open[1]!).execute();
    expect((await reply(u, answered!)).json()).toMatchObject({ success: true, data: { status: 'open' } });
    expect(await openCount(u)).toBe(20);
  });

  it(`ends with at most 20 open tickets after 10 parallel reopening replies at 19 (${testDbKind === 'postgres' ? 'concurrent on PostgreSQL' : 'serialised by PGlite'})`, async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await tickets(u, 'open', 19);
    const answered = await tickets(u, 'answered', 5);
    const closed = await tickets(u, 'closed', 5);
    const answers = await Promise.all([...answered, ...closed].map((id) => reply(u, id)));
    expect(await openCount(u)).toBe(20);
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) expect(r.json()).toEqual({ success: false, code: 'RATE_LIMITED', message: CAP_MESSAGE });
    // And a create at 20 open is refused too, as before.
    expect((await inject(t.app, support.create, { token: u.token, body: { type: 'general', message: 'A twenty-first ticket' } })).json().message).toBe(
      CAP_MESSAGE,
    );
  });

  it(`takes at most ${SUPPORT_MAX_USER_REPLIES} replies of the user per ticket: then a 400 that says so, and nothing is written`, async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const [id] = await tickets(u, 'answered', 1);
    await t.db
      .insertInto('support_ticket_replies')
      .values(
        Array.from({ length: SUPPORT_MAX_USER_REPLIES - 1 }, (_, i) => ({ ticket_id: id!, author: 'user' as const, author_id: u.id, message: `Reply ${i}` })),
      )
      .execute();
    // Support's own replies do not count against the user's.
    await t.db.insertInto('support_ticket_replies').values({ ticket_id: id!, author: 'admin', author_id: u.id, message: 'An answer from support' }).execute();
    expect((await reply(u, id!)).statusCode).toBe(200);
    const before = await repliesOf(id!);
    const res = await reply(u, id!);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      message: `This ticket has reached its limit of ${SUPPORT_MAX_USER_REPLIES} replies. Please open a new ticket.`,
    });
    expect(await repliesOf(id!)).toBe(before);
  });
});
