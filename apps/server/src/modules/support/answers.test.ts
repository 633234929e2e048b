import { SUPPORT_DISALLOWED_MESSAGE } from '@app/core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser, type TestUser } from '../../test/factories';
import { inject } from '../../test/api';
import { admin as adminApi } from '@app/core/contracts/admin';
import { support } from '@app/core/contracts/support';
import { drainOutbox } from '../mail/outbox';

/**
 * Issue 32, item 20: support answers back. An admin's reply makes the ticket 'answered' (not a red
 * 'closed'), is mailed to the user, and the user can answer in turn (the ticket is open again).
 */
describe('support tickets that answer back', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '1000' });

  const open = async (u: TestUser) =>
    (await inject(t.app, support.create, { token: u.token, body: { type: 'deposit', message: 'My deposit has not arrived yet' } })).data().id as string;
  const mine = async (u: TestUser) => (await inject(t.app, support.list, { token: u.token })).data().data;

  it("an admin's reply: answered, the Admin Response, one mail with the reply; the user replies and it is open again", async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const id = await open(user);
    const reply = await inject(t.app, adminApi.replyTicket, { token: admin.token, params: { id }, body: { message: 'It arrived: see your Deposit Balance.' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({
      success: true,
      message: 'Reply sent',
      data: { status: 'answered', adminRemark: 'It arrived: see your Deposit Balance.' },
    });
    const [ticket] = await mine(user);
    expect(ticket).toMatchObject({ id, status: 'answered', replies: [{ author: 'admin', message: 'It arrived: see your Deposit Balance.' }] });

    await drainOutbox(t.ctx);
    const mail = await t.mailbox.waitFor(user.email, 5_000, `Support answered your ticket #${id}`);
    expect(mail.text).toContain('It arrived: see your Deposit Balance.');
    expect(mail.text).not.toContain('My deposit has not arrived yet');

    const back = await inject(t.app, support.reply, { token: user.token, params: { id }, body: { message: 'Thank you, I see it now.' } });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ message: 'Reply sent', data: { status: 'open' } });
    expect((await mine(user))[0]!.replies.map((r) => r.author)).toEqual(['admin', 'user']);
    // The queue shows it waiting for support again, with the whole thread.
    const queue = (await inject(t.app, adminApi.tickets, { token: admin.token, query: { status: 'open' } })).data().data;
    expect(queue.find((x) => x.id === id)).toMatchObject({ status: 'open', replies: [{ author: 'admin' }, { author: 'user' }] });
    const answered = (await inject(t.app, adminApi.tickets, { token: admin.token, query: { status: 'answered' } })).json();
    expect(answered.success).toBe(true);
  });

  it('closing mails too; a closed ticket takes no more admin replies, but the user may reopen it', async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    const id = await open(user);
    expect((await inject(t.app, adminApi.closeTicket, { token: admin.token, params: { id }, body: { adminRemark: 'Solved.' } })).data()).toMatchObject({
      status: 'closed',
      adminRemark: 'Solved.',
    });
    await drainOutbox(t.ctx);
    expect((await t.mailbox.waitFor(user.email, 5_000, 'Support answered your ticket')).text).toContain('Solved.');
    const again = await inject(t.app, adminApi.replyTicket, { token: admin.token, params: { id }, body: { message: 'More.' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, code: 'CONFLICT', message: 'Ticket is already closed' });
    expect((await inject(t.app, support.reply, { token: user.token, params: { id }, body: { message: 'It happened again today.' } })).data().status).toBe(
      'open',
    );
  });

  it("a reply follows the spec's message rules, and nobody answers another user's ticket", async () => {
    const user = await createUser(t.db, t.ctx.secret);
    const other = await createUser(t.db, t.ctx.secret);
    const id = await open(user);
    for (const [message, error] of [
      ['short', 'Message must be at least 10 characters long'],
      ['I paid $100 <b>', SUPPORT_DISALLOWED_MESSAGE],
      ['   ', 'Message is required'],
    ]) {
      const res = await inject(t.app, support.reply, { token: user.token, params: { id }, body: { message } });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toBe(error);
    }
    const theirs = await inject(t.app, support.reply, { token: other.token, params: { id }, body: { message: 'Not my ticket at all' } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Ticket not found' });
    expect((await inject(t.app, support.reply, { token: user.token, params: { id }, body: { message: 'x'.repeat(10) } })).statusCode).toBe(200);
    const admin = await createUser(t.db, t.ctx.secret, { isAdmin: true });
    expect((await inject(t.app, adminApi.replyTicket, { token: admin.token, params: { id: '999999999' }, body: { message: 'Hello' } })).statusCode).toBe(404);
    expect((await inject(t.app, adminApi.replyTicket, { token: user.token, params: { id }, body: { message: 'Hello' } })).statusCode).toBe(403);
  });
});
